"""Tools called by their own names with argument values as sent, against the reference.

``reference_direct_probes.json`` holds, per probe of `direct_probes.py`, a digest of the
reference's outputs (text and error flag of every call) and final database hash. Probes listed
as divergent are the documented difference: a call that raises after writing keeps its
partial write in the reference, while here a raising call changes nothing.
"""

import json
from pathlib import Path

from tests.domains.banking_knowledge.direct_probes import direct_probes, probe_arguments_text
from tests.domains.banking_knowledge.test_probes import against_reference

REFERENCE = json.loads((Path(__file__).parent / "reference_direct_probes.json").read_text())


def test_direct_probes__every_output_error_and_hash_matches_the_reference(bank):
    listed = direct_probes(bank)
    assert len(listed) == len(REFERENCE["digests"]) == 4067
    mismatched, divergent = against_reference(bank, listed, REFERENCE, probe_arguments_text)
    assert mismatched == []
    assert divergent == [False] * 12  # still different, for the documented reason only
