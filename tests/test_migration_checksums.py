"""A migration's checksum covers its statements, not its comments, so documentation in an
applied migration can be reworded while a changed statement is still refused."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from recallflow.adapters.postgres.migrate import Migration, load_migrations

REPO = Path(__file__).resolve().parents[1]


def test_rewording_a_comment_keeps_the_checksum() -> None:
    sql = "-- old words\nCREATE TABLE t (a int);\n"
    reworded = Migration(9, "0009_t.sql", "-- new, better words\nCREATE TABLE t (a int);\n")
    assert reworded.checksum == Migration(9, "0009_t.sql", sql).checksum


def test_changing_a_statement_changes_the_checksum() -> None:
    before = Migration(9, "0009_t.sql", "CREATE TABLE t (a int);\n")
    after = Migration(9, "0009_t.sql", "CREATE TABLE t (a bigint);\n")
    assert not after.matches(before.checksum)


def test_a_store_that_recorded_the_whole_text_of_a_migration_still_opens() -> None:
    for migration in load_migrations():
        whole_text = hashlib.sha256(migration.sql.encode()).hexdigest()
        assert migration.matches(whole_text)


def test_the_checksums_of_the_first_release_are_still_accepted() -> None:
    # What stores migrated by the first release recorded: the whole text of each file as
    # it was in the repository's first commit that had the file.
    for migration in load_migrations()[:5]:
        first = subprocess.run(
            [
                "git",
                "-C",
                str(REPO),
                "log",
                "--diff-filter=A",
                "--format=%H",
                "--",
                f"migrations/{migration.name}",
            ],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split()
        if not first:
            continue  # not a git checkout
        text = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{first[-1]}:migrations/{migration.name}"],
            capture_output=True,
            check=True,
        ).stdout
        assert migration.matches(hashlib.sha256(text).hexdigest()), migration.name
