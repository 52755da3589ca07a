"""Runs pytest on the arguments, or says "skip: ..." (ctest's skip marker) without pytest."""
import sys

try:
    import pytest
except ImportError:
    print(f"skip: {sys.executable} has no pytest (apt-get install python3-pytest)")
    sys.exit(0)

sys.exit(pytest.main(sys.argv[1:]))
