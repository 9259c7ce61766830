"""What rules can read from a turn's text without an LLM, in English and Chinese: the commands and tool calls in
it, the identifiers and names it mentions, what a user's or an agent's closing words say about the outcome, and
the instructions a user gives for next time."""

import re
from typing import Literal

Verdict = Literal["success", "failure", "partial", "unknown"]

# Command-line programs. Names that are also common English words count only where they stand as a command (at the
# start of a line or after ':', '$', '`', '&&', '|', ';' and followed by an argument).
_CLI = set(
    """kubectl docker podman helm terraform tofu ansible aws gcloud az gsutil eksctl minikube kind k9s oc
    git gh glab svn hg npm npx pnpm yarn pip pip3 pipx uv poetry conda python python3 pytest tox ruff mypy black
    node deno bun tsc eslint jest vitest cargo rustc go gradle mvn dotnet javac
    psql mysql mysqldump pg_dump pg_restore sqlite3 mongosh mongodump redis-cli clickhouse-client
    curl wget ssh scp sftp rsync ssh-keygen openssl certbot nginx apachectl systemctl journalctl service crontab
    sudo chmod chown chgrp mv cp rm mkdir rmdir ls tar gzip gunzip unzip zip sed awk grep rg jq yq xargs
    brew apt apt-get yum dnf apk snap mailq postqueue dig nslookup traceroute netstat ss lsof ps htop df du
    ffmpeg convert cloc vault consul nomad packer vagrant make cmake bazel sam cdk pulumi serverless
    s3cmd rclone dig ping telnet nc iptables ufw firewall-cmd""".split()
)
_AMBIGUOUS = set(
    "make find sort go cat top kill head tail watch test time touch open service convert".split()
)
# Where a command starts: the start of the text or of a line, after : $ ` ; | ( && (and their full-width forms), or
# after a word that introduces one (run, using, with, 执行...). The program may carry a path (~/venv/bin/pip). Only
# spaces between (a line break is a start of its own): over a run of blank lines every one would re-read the rest.
_LEAD = r"run|runs|running|ran|execute|executing|using|with|via|then"
_COMMAND_AT = re.compile(
    rf"(^|[:$`;|(\n：，、]|&&|\b(?i:{_LEAD})\b|运行|执行|使用|用|然后)"
    rf"[^\S\r\n]*(?!(?i:{_LEAD})\b)((?:~?[\w.-]*/)*[a-z][a-z0-9_-]*[a-z0-9])(?![\w-]|\.\w)(\s+[-\w\"'./~$@*%{{]|\()?",
    re.MULTILINE,
)
_CALL = re.compile(r"(?<![\w.])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\(")
_TOOL_PREFIX = re.compile(r"^\s*([a-z][a-z0-9_-]*[a-z0-9]):\s")


def commands(text: str) -> list[str]:
    """Programs and tool calls a turn runs, in order of appearance: `kubectl apply ...` -> kubectl,
    `search_flights(...)` -> search_flights. A program counts where a command starts (not `ls` in
    `aws s3 ls`, not `node` in `brew install node`)."""
    found: list[tuple[int, str]] = []
    for m in _COMMAND_AT.finditer(text):
        name = m.group(2).rsplit("/", 1)[-1]
        has_argument = bool(m.group(3))
        if (name in _CLI and name not in _AMBIGUOUS) or (name in _AMBIGUOUS and has_argument):
            found.append((m.start(2), name))
    found += [(m.start(), m.group(1)) for m in _CALL.finditer(text)]
    return list(dict.fromkeys(name for _, name in sorted(found)))


def tool_output_program(text: str) -> str | None:
    """A tool result that names its program first ("psql: error: ...")."""
    m = _TOOL_PREFIX.match(text)
    return m.group(1) if m and m.group(1) in _CLI else None


# Identifiers: words holding '-', '_', '.', '/', '@' or ':' inside, or mixing letters with digits or inner capitals
# (staging-billing, billing.yaml, src/auth.py, sales-leads@acme.io, api-gateway, v3.2, QX7RTL). Flags, numbers and
# abbreviations ending in a dot are not.
_IDENT = re.compile(r"(?<![\w@./:-])([A-Za-z0-9_~][\w.@/:+-]*[\w/])")
_NOT_IDENT = re.compile(r"^(\d+([.,:/-]\d+)*[a-z%]*|[a-z]\.([a-z]\.)+|https?:.*|e\.g|i\.e)$", re.IGNORECASE)
_NAME = re.compile(r"(?<=[a-z0-9,;] )([A-Z][a-z]+(?: [A-Z][a-z]+)*)")
_QUOTED = re.compile(r"[「“《\"]([^」”》\"\n]{2,40})[」”》\"]")
_STATUS_WORDS = set("ERROR WARN WARNING INFO DEBUG FATAL OK FAILED SUCCESS NOTE TODO".split())
_COMMON_CAPS = set("I I'm I'll I've OK Ok The This That Then".split())


def identifiers(text: str) -> list[str]:
    out = []
    for m in _IDENT.finditer(text):
        word = m.group(1).rstrip(".:")
        if len(word) < 3 or word.startswith("-") or _NOT_IDENT.match(word):
            continue
        inner = any(c in word[1:-1] for c in "-_./@:")
        mixed = bool(re.search(r"[A-Za-z]", word)) and (
            bool(re.search(r"\d", word)) or bool(re.search(r"[a-z][A-Z]", word))
        )
        upper = word.isupper() and word.isalpha() and word not in _STATUS_WORDS
        if inner or mixed or upper:
            out.append(word)
    return out


def names(text: str) -> list[str]:
    """Capitalised words inside a sentence (Maria, Lisbon, GitHub Actions): never a sentence's first word."""
    return [n for n in _NAME.findall(text) if n not in _COMMON_CAPS] + _QUOTED.findall(text)


# Closing words. A user's last word about the result outranks everything; then what the agent says it did; then the
# last tool result.
_POSITIVE = re.compile(
    r"\b(thanks|thank you|works|worked|working now|perfect|great|excellent|awesome|nice|good|better|fine|done|"
    r"fixed|solved|looks good|that's it|exactly|got it|got them|right)\b"
    r"|谢谢|多谢|好了|成功|可以|解决了|没问题|太好了|完美|不错|这个好|很好|挺好|明白了|对了|行了",
    re.IGNORECASE,
)
_WEAK_POSITIVE = re.compile(r"^\W*(ok|okay|sure|alright|好的|好|行|嗯)\b", re.IGNORECASE)
_NEGATIVE = re.compile(
    r"\b(that'?s (wrong|not (it|right|what))|not what i (asked|wanted|meant)|(doesn'?t|didn'?t|does not|did not) "
    r"work|still (broken|failing|wrong|slow|not|the same)|nothing changed|no difference|you (broke|missed|ignored)|"
    r"wrong (answer|file|result)|try again|useless|wrong)\b"
    r"|不对|错了|不是我要的|还是不行|还是有|没用|不行|重新来|搞错|太正式",
    re.IGNORECASE,
)
_GIVE_UP = re.compile(
    r"\b(forget it|never mind|nevermind|give up|i'?ll (ask|do it|handle it)|let'?s (drop|leave) it)\b"
    r"|算了|不用了|我自己来|我去找",
    re.IGNORECASE,
)
_PARTIAL = re.compile(
    r"\b(half done|partly|partially|only (part|some|half)|out of (two|three|four|five|\d+)|\d+ of (the )?\d+|"
    r"some of|not all|for now|the rest)\b"
    r"|一部分|部分|还差|只完成|只修好|其中|剩下|剩余|先这样",
    re.IGNORECASE,
)
_BUT = re.compile(r"\b(but|except|although|though)\b|但是|不过|但", re.IGNORECASE)
_AGENT_FAILED = re.compile(
    r"\b(could not|couldn'?t|unable to|am unable|can'?t|cannot|failed to|not able to|gave up|i was not able)\b"
    r"|无法|没能|未能|不能|失败",
    re.IGNORECASE,
)
_AGENT_PARTIAL = re.compile(
    r"\b(partially|\d+ of (the )?\d+|only (part|some)|not all|were skipped|was skipped|still on the old)\b"
    r"|部分|其中|只完成|只修好|还差|剩下|没有(修改|完成|翻译)",
    re.IGNORECASE,
)
_NEXT_STEP = re.compile(
    r"\b(next,? i('ll| will)|next i will|i will now|now i('ll| will)|let me)\b|接下来|下一步|然后我会",
    re.IGNORECASE,
)


def user_verdict(text: str) -> tuple[Verdict, bool]:
    """A user's closing words: (verdict, strong). Weak = only "ok"/"好的", which the agent's own report outranks."""
    neg, pos = bool(_NEGATIVE.search(text)), bool(_POSITIVE.search(text))
    part = bool(_PARTIAL.search(text))
    if _GIVE_UP.search(text):
        return "failure", True
    if neg:
        return ("partial" if part else "failure"), True
    if part or (pos and _BUT.search(text)):
        return "partial", True
    if pos:
        return "success", True
    if _WEAK_POSITIVE.search(text):
        return "success", False
    return "unknown", False


def dissatisfied(text: str) -> bool:
    return bool(_NEGATIVE.search(text))


def agent_verdict(text: str) -> Verdict:
    """What an agent's closing report says: it failed, did part, or is not finished (unknown: it announces a next
    step); "success" only means no such sign."""
    if _AGENT_FAILED.search(text):
        return "failure"
    if _AGENT_PARTIAL.search(text):
        return "partial"
    if _NEXT_STEP.search(text):
        return "unknown"
    return "success"


# Instructions and preferences for next time: explicit evidence worth a lesson without an LLM.
_LEAD_IN = re.compile(
    r"^\W*((ok|okay|good|great|thanks|and|also|so|but|fine|sure)\b[\s,.!]*)+", re.IGNORECASE
)
_INSTRUCTION = re.compile(
    r"\bremember\b|\bnext time\b|\bfrom now on\b|\bgoing forward\b|\bin (the )?future\b|\bkeep in mind\b"
    r"|^(please\s+)?(always|never|don'?t|do not|avoid|make sure)\b"
    r"|\b(you should|you must|please)\s+(always|never)\b|\bi(?:'d| would)? (prefer|rather)\b"
    r"|记住|记得|下次|以后|今后|不要|别再|务必|一定要|总是|永远|始终|我(更)?喜欢|每次都",
    re.IGNORECASE,
)
_NOT_INSTRUCTION = re.compile(
    r"\b(don'?t|do not) (know|understand|see|worry|think|have|remember)\b|\d\s*(分钟|小时|天|周|个月|年)以后|要不要",
    re.IGNORECASE,
)
# A sentence ends at . ! ? ; followed by a space or the end (not inside sales-leads@acme.io or v3.2), or at 。！？；.
_SENTENCE = re.compile(r"(?:[^.!?;。！？；\n]|[.!?;](?=\S))+(?:[.!?;](?=\s|$)|[。！？；])?")
_UNWRAP = re.compile(r"^(please\s+)?(remember|keep in mind)\s+(to|that)\s+|^记住[，,:：]?\s*", re.IGNORECASE)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip(" .!?。！？;；")]


def instruction(sentence: str) -> str | None:
    """The sentence as a rule for next time when it is one ("Remember to create the namespace first next time."
    -> "Create the namespace first next time."), else None."""
    s = _LEAD_IN.sub("", sentence).strip()
    if not s or s.endswith(("?", "？")) or _NOT_INSTRUCTION.search(s) or not _INSTRUCTION.search(s):
        return None
    s = _UNWRAP.sub("", s).strip()
    return s[:1].upper() + s[1:] if s else None
