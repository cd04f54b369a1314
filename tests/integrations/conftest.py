from __future__ import annotations

import pytest

from tests.id_leaks import revealing_task


@pytest.fixture(params=["built-in", "official"])
def id_case(request):
    """(data folder or None, the telecom domain, a task whose id or description names its
    faults), on built-in and on official data: for the tests that no route leaks the id."""
    data_dir = None if request.param == "built-in" else request.getfixturevalue("data_dir")
    return (data_dir, *revealing_task(data_dir))
