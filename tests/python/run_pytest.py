"""Runs pytest on the arguments, or says "skip: ..." (ctest's skip marker) without pytest."""
import sys

# Guarded: the batch tests' Dask worker processes are spawned by importing this main script
# again, which must not start another pytest run in each of them.
if __name__ == "__main__":
    try:
        import pytest
    except ImportError:
        print(f"skip: {sys.executable} has no pytest (apt-get install python3-pytest)")
        sys.exit(0)

    sys.exit(pytest.main(sys.argv[1:]))
