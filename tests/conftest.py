"""The suite's lanes (README, "Developing"): ``make check`` runs everything but the tests
marked ``browser`` (Chromium against a real JupyterLab, Notebook 7 or marimo), ``notebook``
(an example notebook run by nbclient, or a Jupyter server started) and ``slow`` (a few
seconds or more on a quiet 2-core machine); ``make test`` (CI) runs them all, none skipped.

The tests live in the folder of the layer they test (``engine/``, ``analysis/``, ``table/``,
``programs/``, ``widget/``; ``browser/`` drives the page); the three that test the whole
project stay here: the layers' imports, the README's examples and the fuzz run. Shared
helpers (``helpers.py``, ``naive_odds.py``) and data (``data/``, ``golden/``) are here too,
on the import path (pyproject's ``pythonpath``); a test that borrows another folder's
helper names it by package (``from widget.test_widget_secrets import swapped_record``).

Tests in ``tests/browser/`` are marked ``browser`` and the notebook runners ``notebook``
here, by file; a slow test is marked where it stands (``@pytest.mark.slow``) or, for the
tests measured slow when the lanes were made (``pytest --durations``), in :data:`SLOW`.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

TESTS = Path(__file__).parent
NOTEBOOK_FILES = {TESTS / "widget" / "test_examples.py", TESTS / "widget" / "test_lab.py"}
SLOW = (  # node ids (or their prefix, for every parameter of a test)
    "tests/analysis/test_review.py::test_decisions_and_luck_explain_the_result",
    "tests/analysis/test_review.py::test_the_random_bot_loses_far_more_than_the_lookahead_bot",
    "tests/analysis/test_review.py::test_review_of_a_sample_game",
    "tests/analysis/test_review.py::test_forced_decisions_are_labelled_best",
    "tests/analysis/test_review.py::test_the_sequential_refinement_settles_a_label_or_spends_the_cap",
    "tests/analysis/test_review.py::test_cli_review",
    "tests/analysis/test_review.py::test_puzzles_from_a_reviewed_game",
    "tests/analysis/test_review.py::test_review_of_a_partial_record",
    "tests/analysis/test_review.py::test_review_by_win_probability",
    "tests/widget/test_widget_review.py::",
    "tests/programs/test_export.py::test_a_seats_export_is_the_same_file_whatever_the_unknown_cards",
    "tests/widget/test_widget_classroom.py::test_every_message_a_click_can_show_is_in_plain_words",
    "tests/widget/test_widget_kernel_messages.py::",
    "tests/analysis/test_lookahead.py::test_lookahead_bot_wakes_then_chooses_its_play_after_the_swat",
    "tests/programs/test_simulate.py::test_a_dask_cluster_plays_the_same_games",
    "tests/programs/test_simulate.py::test_cli_reports_paired_differences",
    # measured by CPU time when make check went parallel (issue 18: `-n 2`, 2.8 s or more);
    # the three-seat export, the other seats' reviews and the models' texts stay fast
    "tests/programs/test_export.py::test_a_seats_export_of_a_sample_game_leaks_nothing[game-5-seats]",
    "tests/programs/test_export.py::test_a_seats_export_of_a_sample_game_leaks_nothing[game-4-seats]",
    "tests/programs/test_export.py::test_the_page_unpacks_to_exactly_the_states[game-5-seats]",
    "tests/programs/test_class_review.py::test_a_dask_cluster_gives_the_same_bytes",
    "tests/widget/test_widget_secrets.py::test_a_reviewed_replay_in_a_seats_view_leaks_nothing[0]",
    "tests/widget/test_widget_secrets.py::test_a_reviewed_replay_in_a_seats_view_leaks_nothing[1]",
    "tests/analysis/test_review.py::test_a_review_by_the_inferred_model_says_so",
    "tests/analysis/test_review.py::test_a_review_by_the_inferred_model_saved_with_the_record",
    "tests/table/test_plain_words.py::test_no_panel_text_holds_the_analysts_words_by_default",
    "tests/table/test_turn_numbers.py::test_the_review_report_and_the_cli_count_from_one",
)


@pytest.hookimpl(tryfirst=True)  # before -m and -k deselect: every collected test is here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path))
        if TESTS / "browser" in path.parents:
            item.add_marker(pytest.mark.browser)
        elif path in NOTEBOOK_FILES:
            item.add_marker(pytest.mark.notebook)
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
    # An entry of SLOW that names no test (renamed or moved) would put a slow test back in
    # the fast lane silently: refused, whenever its file was collected.
    files = {item.nodeid.split("::")[0] for item in items}
    stale = [s for s in SLOW if s.split("::")[0] in files
             and not any(item.nodeid.startswith(s) for item in items)]
    if stale and not any("::" in str(arg) for arg in config.args):  # not a test picked by id
        raise pytest.UsageError(f"tests/conftest.py SLOW names no test: {', '.join(stale)}")
