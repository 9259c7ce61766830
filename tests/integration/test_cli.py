"""The `hindsight` command line, driven through its entry point."""

import json

import pytest

from hindsight_memory.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_store_then_recall_as_table_and_json(tmp_path, capsys):
    base = ["--store", str(tmp_path), "--embedder", "hashing"]
    assert (
        run(capsys, *base, "store", "alice/p", "The staging DB runs on port 5433", "--tag", "infra")[0] == 0
    )
    code, out, _ = run(capsys, *base, "recall", "alice/p", "which port does the staging DB use")
    assert code == 0 and "5433" in out and "score" in out
    code, out, _ = run(capsys, *base, "recall", "alice/p", "staging DB port", "--json", "--explain")
    doc = json.loads(out)
    assert doc["memories"][0]["tags"] == ["infra"] and doc["explain"]["channels"]["vector"]


def test_recall_says_nothing_relevant(tmp_path, capsys):
    base = ["--store", str(tmp_path), "--embedder", "hashing"]
    run(capsys, *base, "store", "alice/p", "The staging DB runs on port 5433")
    assert run(capsys, *base, "recall", "alice/p", "favourite opera singer")[1].strip() == "nothing relevant"


def test_export_import_round_trip_and_seed_import(tmp_path, capsys):
    a, b = (
        ["--store", str(tmp_path / "a"), "--embedder", "hashing"],
        ["--store", str(tmp_path / "b"), "--embedder", "hashing"],
    )
    run(capsys, *a, "store", "alice/p", "Deploys are frozen on Fridays", "--tag", "policy")
    assert run(capsys, *a, "export", "alice/p", "-o", str(tmp_path / "x.jsonl"), "-q")[0] == 0
    assert run(capsys, *b, "import", "-", str(tmp_path / "x.jsonl"), "-q")[0] == 0
    assert "Fridays" in run(capsys, *b, "recall", "alice/p", "when are deploys frozen")[1]
    seeds = tmp_path / "seeds.jsonl"
    seeds.write_text(
        '{"content": "The VPN endpoint is vpn.example.org"}\n{"content": "Standup is at 9:15"}\n'
    )
    code, out, _ = run(capsys, *b, "import", "bob", str(seeds), "-q", "--confidence", "0.6")
    assert code == 0 and json.loads(out)["seeds"] == 2
    stats = json.loads(run(capsys, *b, "stats", "bob")[1])
    assert stats["memories"]["episodic"]["active"] == 2


def test_bad_input_is_a_clear_error_not_a_traceback(tmp_path, capsys):
    base = ["--store", str(tmp_path), "--embedder", "hashing"]
    code, _, err = run(capsys, *base, "recall", "x' OR '1'='1", "anything")
    assert code == 2 and err.startswith("error: namespace")
    code, _, err = run(capsys, *base, "store", "alice/p", "x", "--importance", "7")
    assert code == 2 and "importance" in err


def test_careless_paths_are_a_clear_error_not_a_traceback(tmp_path, capsys):
    # found by probing, 2026-12-06: each of these ended in a Python traceback
    base = ["--store", str(tmp_path / "data"), "--embedder", "hashing"]
    latin = tmp_path / "latin1.jsonl"
    latin.write_bytes(b'\xff\xfe{"content": "x"}\n')
    for argv, said in [
        ([*base, "import", "alice/p", str(tmp_path / "missing.jsonl")], "No such file or directory"),
        ([*base, "import", "alice/p", str(tmp_path)], "Is a directory"),
        ([*base, "import", "alice/p", str(latin)], "not UTF-8"),
        (
            [*base, "export", "alice/p", "-o", str(tmp_path / "no" / "such" / "x.jsonl")],
            "No such file or directory",
        ),
        (["--store", "/dev/null", "--embedder", "hashing", "stats", "alice/p"], "/dev/null"),
    ]:
        code, _, err = run(capsys, *argv)
        assert code == 2 and err.startswith("error: ") and said in err, (argv, err)
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--port", "99999"])
    assert exit_.value.code == 2 and "between 1 and 65535" in capsys.readouterr().err


def test_token_create_prints_the_token_once_and_only_its_hash_record(tmp_path, capsys):
    code, out, _ = run(capsys, "token", "create", "--tenant", "acme", "--namespace", "alice/*")
    token = next(w for w in out.split() if w.startswith("hs_"))
    record = json.loads(out.strip().splitlines()[-1])
    assert code == 0 and record["tenant"] == "acme" and record["namespaces"] == ["alice/*"]
    assert token not in out.strip().splitlines()[-1]


def test_show_edit_forget_and_restore_one_memory_by_id(tmp_path, capsys):
    base = ["--store", str(tmp_path), "--embedder", "hashing"]
    _, out, _ = run(capsys, *base, "store", "alice/p", "The build server is ci-3", "--tag", "infra")
    old = json.loads(out)["ids"][0]
    code, out, _ = run(capsys, *base, "edit", old, "--content", "The build server is ci-7", "--note", "moved")
    new = json.loads(out)["id"]
    assert code == 0 and json.loads(out)["supersedes"] == old
    code, out, _ = run(capsys, *base, "show", new)  # the namespace is found from the id
    shown = json.loads(out)
    assert code == 0 and shown["content"] == "The build server is ci-7" and shown["tags"] == ["infra"]
    assert [v.split()[:2] for v in shown["versions"]] == [[old, "superseded"], [new, "active"]]
    assert json.loads(run(capsys, *base, "show", new, "--json")[1])["versions"][0]["content"] == (
        "The build server is ci-3"
    )
    assert json.loads(run(capsys, *base, "forget", new, "-n", "alice/p")[1])["forgotten"] == 1
    assert run(capsys, *base, "recall", "alice/p", "which build server")[1].strip() == "nothing relevant"
    assert json.loads(run(capsys, *base, "restore", new)[1])["restored"] == 1
    assert "ci-7" in run(capsys, *base, "recall", "alice/p", "which build server")[1]
    code, _, err = run(capsys, *base, "edit", old, "--content", "The build server is ci-9")
    assert code == 2 and "superseded" in err
    code, _, err = run(capsys, *base, "show", "0" * 32)
    assert code == 2 and err.startswith("error: no memory")


def test_tenant_reads_and_writes_that_tenants_tables_as_a_gateway_with_tokens_keeps_them(tmp_path, capsys):
    # --tenant was ignored: every tenant's CLI saw the store's root (found by probing, 2026-12-06)
    from hindsight_memory.config import Settings
    from hindsight_memory.gateway.tenants import TenantRegistry
    from hindsight_memory.models import RecallQuery

    base = ["--store", str(tmp_path / "data"), "--embedder", "hashing"]
    assert run(capsys, *base, "--tenant", "t1", "store", "alice/p", "the vault code is 4417")[0] == 0
    code, out, _ = run(capsys, *base, "--tenant", "t2", "recall", "alice/p", "vault code", "--json")
    assert code == 0 and json.loads(out)["memories"] == []
    code, out, _ = run(capsys, *base, "recall", "alice/p", "vault code", "--json")  # the root, as before
    assert code == 0 and json.loads(out)["memories"] == []
    # where the gateway's registry (tokens configured) finds tenant t1
    registry = TenantRegistry(Settings(store_uri=str(tmp_path / "data"), embedder="hashing"))
    try:
        got = registry.get("t1").recall(RecallQuery(namespace="alice/p", query="vault code", min_score=0))
        assert [m.content for m in got.memories] == ["the vault code is 4417"]
    finally:
        registry.close()
    code, _, err = run(capsys, *base, "--tenant", "../etc", "stats", "alice/p")
    assert code == 2 and err.startswith("error: tenant")
