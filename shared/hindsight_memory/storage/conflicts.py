"""Which LanceDB errors mean "another writer committed first: re-run on the latest version"."""

# LanceDB 0.40 raises Lance's commit conflicts as a plain RuntimeError ("lance error: " + Lance's message): no
# exception type says "conflict", so its message is the narrowest reliable signal. These are the messages of Lance
# 13's four commit errors (CommitConflict, RetryableCommitConflict, TooMuchWriteContention, IncompatibleTransaction);
# each means "re-run the operation on the latest version". Provoked here: a compaction preempted by another
# handle's delete on a folder ("Retryable commit conflict ... Please retry"), four writers on moto S3 ("Too many
# concurrent writers ... retry_timeout of 30 s"). tests/integration/test_commit_conflicts.py checks both sides.
_LANCE_ERROR = "lance error: "
_CONFLICTS = (
    "Commit conflict for version",
    "Retryable commit conflict for version",
    "Too many concurrent writers",
    "Incompatible transaction",
)


def is_commit_conflict(exc: BaseException) -> bool:
    """Whether LanceDB raised `exc` because another writer committed first."""
    text = str(exc)
    return (
        isinstance(exc, RuntimeError) and text.startswith(_LANCE_ERROR) and any(c in text for c in _CONFLICTS)
    )
