"""The benchmark dataset: derived from the shared file without losing or changing a field,
with what the harness needs for every bug."""

import json
from pathlib import Path

import pytest

from qusema.bench.dataset import (DATASET_PATH, SHARED_FIELDS, DatasetError, load_dataset, shared_benchmark_path,
                                  validate)


def test_every_bug_has_release_pins_root_cause_and_selfcheck():
    dataset = load_dataset()
    assert len(dataset.bugs) == 20
    assert sum(b.library == "qiskit" for b in dataset.bugs) == 10
    for bug in dataset.bugs:
        assert bug.buggy_target == f"{bug.library}=={bug.buggy_version}"
        assert (bug.fixed_target is None) == (bug.first_fixed_release is None)
        assert bug.root_cause_qualname.split("::" if bug.language == "rust" else ".")[-1] in bug.root_cause_segment \
            or bug.root_cause_index_note, bug.id  # a renamed segment must say why
        code = dataset.selfcheck_path(bug).read_text()
        assert "assert" in code and bug.id in code, bug.id


def test_dataset_keeps_the_shared_file_field_for_field():
    shared = shared_benchmark_path()
    if shared is None:
        pytest.skip("the shared benchmark file (../shared/benchmarks/historical.json) is not on this machine")
    validate(load_dataset(), shared)


def _shared_copy(tmp_path: Path) -> tuple[Path, dict]:
    shared = shared_benchmark_path()
    if shared is None:
        pytest.skip("the shared benchmark file is not on this machine")
    return shared, json.loads(shared.read_text())


def test_a_changed_shared_field_is_caught(tmp_path: Path):
    shared, record = _shared_copy(tmp_path)
    dataset = load_dataset()
    # The same bytes but for one bug's fixed release: the digest check and the field check
    # must each catch it.
    record["bugs"][0]["first_fixed_release"] = "9.9.9"
    altered = tmp_path / "historical.json"
    altered.write_text(json.dumps(record, indent=1))
    with pytest.raises(DatasetError, match="changed since"):
        validate(dataset, altered)
    ours = json.loads(DATASET_PATH.read_text())
    import hashlib
    ours["derived_from"]["sha256"] = hashlib.sha256(altered.read_bytes()).hexdigest()
    copy = tmp_path / "dataset.json"
    copy.write_text(json.dumps(ours))
    (tmp_path / "selfcheck").symlink_to(DATASET_PATH.parent / "selfcheck")
    with pytest.raises(DatasetError, match="first_fixed_release"):
        validate(load_dataset(copy), altered)


def test_a_dropped_field_or_inconsistent_pin_is_rejected(tmp_path: Path):
    record = json.loads(DATASET_PATH.read_text())
    (tmp_path / "selfcheck").symlink_to(DATASET_PATH.parent / "selfcheck")
    dropped = json.loads(json.dumps(record))
    del dropped["bugs"][3]["api"]
    (tmp_path / "a.json").write_text(json.dumps(dropped))
    with pytest.raises(DatasetError, match="missing fields"):
        load_dataset(tmp_path / "a.json")
    wrong_pin = json.loads(json.dumps(record))
    wrong_pin["bugs"][0]["fixed_target"] = "qiskit==2.2.0"
    (tmp_path / "b.json").write_text(json.dumps(wrong_pin))
    with pytest.raises(DatasetError, match="fixed_target"):
        load_dataset(tmp_path / "b.json")


def test_shared_fields_are_exactly_the_shared_schema():
    shared = shared_benchmark_path()
    if shared is None:
        pytest.skip("the shared benchmark file is not on this machine")
    for bug in json.loads(shared.read_text())["bugs"]:
        assert tuple(bug) == SHARED_FIELDS


def test_releases_group_bugs_for_one_audit_each():
    dataset = load_dataset()
    releases = dataset.releases()
    assert sorted(b.id for b in releases["qiskit==1.0.2"]) == [
        "qiskit-10570", "qiskit-11974", "qiskit-12093", "qiskit-12429", "qiskit-13047"]
    assert sum(len(v) for v in releases.values()) == 20


def test_an_unknown_bug_id_is_named_in_a_plain_message():
    from click.testing import CliRunner

    from qusema.cli import main

    result = CliRunner().invoke(main, ["bench", "selfcheck", "--bugs", "qiskit-1,qiskit-14107"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: no bug 'qiskit-1' in ")  # not the quoted repr of a KeyError
    assert "known: qiskit-14107, " in result.output
