"""The embedded writer's journal: every store op is written here, and synced to disk, before it is acknowledged;
entries are removed once the writer has committed them to the tables. A process killed in between (kill -9, a
power cut) leaves its entries behind, and the next process on the same store replays them. Replaying is safe:
the writer drops an item whose event exists (its idempotency key), so an entry committed just before the crash
writes nothing twice.

SQLite from the standard library keeps the journal (WAL mode, synchronous=FULL: a committed insert is on disk).
Acknowledgements that arrive together share one commit, and so one fsync (group commit): the first caller to
find no commit in flight writes everything queued so far, the others wait for it.

One file per process, each held by an exclusive lock (flock) for the life of the process: a second process on the
same store (the CLI beside a server) journals into its own file. At start, a process takes over every file whose
lock it can get — their process is gone — by copying their entries into its own file, then deleting them."""

import fcntl
import json
import logging
import os
import sqlite3
import threading
import uuid
from collections.abc import Iterable
from pathlib import Path

from ..errors import JournalUnavailable

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 5  # an entry that failed this many times is kept (never deleted) but no longer replayed
_SCHEMA = """CREATE TABLE IF NOT EXISTS ops (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT
)"""


def _connect(path: Path, synchronous: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={synchronous}")
    # Deleted entries are overwritten, not left in free pages: a purged memory's text must not linger here.
    db.execute("PRAGMA secure_delete=ON")
    db.execute(_SCHEMA)
    return db


def _lock(path: Path) -> int | None:
    """An exclusive lock on `path` (created if missing), or None when another process holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _remove(db_path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)


class Journal:
    """This process's journal file in `directory` (one directory per store)."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory).expanduser()
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            name = uuid.uuid4().hex
            self.path = self.directory / f"{name}.sqlite3"
            self._lock_path = self.directory / f"{name}.lock"
            fd = _lock(self._lock_path)
            if fd is None:  # a fresh random name cannot be locked by anyone else
                raise JournalUnavailable(f"journal lock {self._lock_path} is held")
            self._lock_fd = fd
            self._append_db = _connect(self.path, "FULL")  # acknowledgements: on disk before the ack
            # Removals after a commit need no fsync: a removal lost in a crash only means a harmless replay.
            self._done_db = _connect(self.path, "NORMAL")
        except (OSError, sqlite3.Error) as exc:
            raise JournalUnavailable(f"cannot open the write journal in {self.directory}: {exc}") from exc
        self._cond = threading.Condition(threading.Lock())
        self._queued: list[tuple[int, str]] = []
        self._results: dict[int, int | BaseException] = {}
        self._tickets = 0
        self._flushing = False
        self._done_lock = threading.Lock()
        self._closed = False

    # ------------------------------------------------------------------ recovery
    def adopt_orphans(self) -> int:
        """Copy the entries of journals whose process is gone into this one (then delete those files)."""
        adopted = 0
        for other in sorted(self.directory.glob("*.sqlite3")):
            if other == self.path:
                continue
            lock_path = other.with_suffix(".lock")
            fd = _lock(lock_path)
            if fd is None:
                continue  # a live process owns it
            try:
                src = sqlite3.connect(other, isolation_level=None)
                try:
                    rows = src.execute("SELECT body, attempts, error FROM ops ORDER BY seq").fetchall()
                except sqlite3.DatabaseError:
                    rows = []  # a file created but never initialised (the process died at once)
                finally:
                    src.close()
                if rows:
                    with self._done_lock:
                        self._done_db.execute("BEGIN IMMEDIATE")
                        self._done_db.executemany(
                            "INSERT INTO ops(body, attempts, error) VALUES (?, ?, ?)", rows
                        )
                        self._done_db.execute("COMMIT")
                        # The copy must be on disk before the original goes.
                        self._done_db.execute("PRAGMA wal_checkpoint(FULL)")
                _remove(other)
                lock_path.unlink(missing_ok=True)
                adopted += len(rows)
            finally:
                os.close(fd)
        if adopted:
            log.warning("journal entries of an earlier process adopted", extra={"entries": adopted})
        return adopted

    def pending(self) -> list[tuple[int, str]]:
        """Entries not yet committed to the tables (oldest first), except those given up on."""
        with self._done_lock:
            rows = self._done_db.execute(
                "SELECT seq, body FROM ops WHERE attempts < ? ORDER BY seq", (MAX_ATTEMPTS,)
            ).fetchall()
        return [(int(seq), str(body)) for seq, body in rows]

    def waiting(self, namespace: str) -> tuple[set[str], set[str]] | None:
        """The ids of `namespace`'s items still in a journal of this store, any process's: (waiting to be applied,
        given up on). None when a journal could not be read (then no id can be called unknown)."""
        pending: set[str] = set()
        failed: set[str] = set()
        for path in sorted(self.directory.glob("*.sqlite3")):
            try:
                src = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
                try:
                    rows = src.execute("SELECT body, attempts FROM ops").fetchall()
                finally:
                    src.close()
            except sqlite3.Error:
                if path.exists():
                    return None
                continue  # adopted by another process meanwhile: its entries are in that one's file
            for body, attempts in rows:
                op = json.loads(body)
                if op.get("op") == "store" and op.get("namespace") == namespace:
                    (failed if attempts >= MAX_ATTEMPTS else pending).update(i["id"] for i in op["items"])
        return pending, failed

    def counts(self) -> dict[str, int]:
        with self._done_lock:
            waiting, failed = self._done_db.execute(
                "SELECT COALESCE(SUM(attempts < ?), 0), COALESCE(SUM(attempts >= ?), 0) FROM ops",
                (MAX_ATTEMPTS, MAX_ATTEMPTS),
            ).fetchone()
        return {"pending": int(waiting), "given_up": int(failed)}

    # ------------------------------------------------------------------ acknowledgement
    def append(self, body: str) -> int:
        """Write `body` and return its sequence number once it is on disk.

        Raises:
            JournalUnavailable: the entry could not be written (the op must not be acknowledged).
        """
        with self._cond:
            if self._closed:
                raise JournalUnavailable("the write journal is closed")
            ticket = self._tickets
            self._tickets += 1
            self._queued.append((ticket, body))
            while ticket not in self._results:
                if self._flushing:
                    self._cond.wait()
                    continue
                # No commit in flight: this caller writes everything queued so far, its own entry included.
                self._flushing = True
                batch, self._queued = self._queued, []
                self._cond.release()
                try:
                    outcome = self._write([b for _, b in batch])
                finally:
                    self._cond.acquire()
                    self._flushing = False
                for i, (t, _) in enumerate(batch):
                    self._results[t] = outcome if isinstance(outcome, BaseException) else outcome[i]
                self._cond.notify_all()
            result = self._results.pop(ticket)
        if isinstance(result, BaseException):
            raise JournalUnavailable(f"could not write the journal: {result}") from result
        return result

    def _write(self, bodies: list[str]) -> list[int] | BaseException:
        db = self._append_db
        try:
            db.execute("BEGIN IMMEDIATE")
            seqs = [int(db.execute("INSERT INTO ops(body) VALUES (?)", (b,)).lastrowid or 0) for b in bodies]
            db.execute("COMMIT")
            return seqs
        except (sqlite3.Error, OSError) as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            log.error("journal write failed", extra={"error": str(exc)})
            return exc

    # ------------------------------------------------------------------ after the writer
    def done(self, seqs: Iterable[int]) -> None:
        """The writer committed these entries: remove them."""
        rows = [(s,) for s in seqs]
        if rows:
            with self._done_lock:
                self._done_db.executemany("DELETE FROM ops WHERE seq = ?", rows)

    def failed(self, seq: int, error: str) -> int:
        """Applying this entry failed: keep it and count the attempt. Returns the attempts so far."""
        with self._done_lock:
            self._done_db.execute(
                "UPDATE ops SET attempts = attempts + 1, error = ? WHERE seq = ?", (error[:2000], seq)
            )
            row = self._done_db.execute("SELECT attempts FROM ops WHERE seq = ?", (seq,)).fetchone()
        return int(row[0]) if row else MAX_ATTEMPTS

    def scrub(self) -> None:
        """Fold the write-ahead log into the file and truncate it: removed entries leave no copy behind."""
        with self._done_lock:
            self._done_db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        """Close; an empty journal file is deleted, one with entries left is kept for the next process."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
        with self._done_lock:
            (left,) = self._done_db.execute("SELECT COUNT(*) FROM ops").fetchone()
            self._append_db.close()
            self._done_db.close()
        if not left:
            _remove(self.path)
            self._lock_path.unlink(missing_ok=True)
        os.close(self._lock_fd)
