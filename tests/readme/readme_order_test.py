#!/usr/bin/env python3
"""Checks, without running anything, that the README and every docs/ page build what they use
before they use it (after only scripts/run.sh a user has one program), and the parsing the
README-command test relies on for that."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import readme_commands_test as readme  # noqa: E402

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class EachPageBuildsWhatItUses(unittest.TestCase):
    def test_every_page_builds_each_program_before_its_first_use(self):
        for page in readme.documentation_pages(SOURCE):
            with self.subTest(page=os.path.relpath(page, SOURCE)):
                self.assertEqual(readme.unbuilt_uses(readme.readme_commands(readme.read(page))), [])

    def test_a_use_before_its_build_line_is_found(self):
        commands = ["build/ui/stereoview-viewer --frames 5",
                    "cmake --build build --target stereoview-viewer"]
        self.assertEqual(readme.unbuilt_uses(commands), [(commands[0], "stereoview-viewer")])

    def test_another_programs_build_line_does_not_count(self):
        commands = ["cmake --build build --target stereoview",
                    "PYTHONPATH=build/python /usr/bin/python3 -c 'import stereoview'",
                    "cmake --install build --prefix out/install"]
        self.assertEqual(readme.unbuilt_uses(commands),
                         [(commands[1], "stereoview_python"), (commands[2], "all")])

    def test_the_whole_build_makes_every_program(self):
        commands = ["cmake --build build", "scripts/cpu_bench.sh build --runs 1",
                    "(cd build && cpack -G DEB)", "build/src/app/stereoview --help"]
        self.assertEqual(readme.unbuilt_uses(commands), [])

    def test_several_targets_on_one_line(self):
        self.assertEqual(readme.built_targets("cmake --build build --target stereoview stereoview_python"),
                         {"stereoview", "stereoview_python"})


class BuildLinesAreNotViewerRuns(unittest.TestCase):
    def test_building_the_viewer_is_a_build_with_the_build_time_limit(self):
        # As a viewer run it was closed after a few seconds, killing the build it started.
        self.assertFalse(readme.is_viewer_run("cmake --build build --target stereoview-viewer"))
        self.assertTrue(readme.is_build("cmake --build build --target stereoview-viewer"))

    def test_starting_the_viewer_is_a_viewer_run(self):
        self.assertTrue(readme.is_viewer_run("build/ui/stereoview-viewer --frames 5"))
        self.assertFalse(readme.is_build("build/ui/stereoview-viewer --frames 5"))


if __name__ == "__main__":
    unittest.main()
