"""Chinese numerals read as numbers: 一万五千 -> 15000, 两 -> 2, 二〇一八 -> 2018."""

ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
ZH_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}


def zh_number(run: str) -> int | None:
    """一万五千 -> 15000, 三千五百 -> 3500, 十 -> 10, 两 -> 2, 一万五 -> 15000, 二〇一八 -> 2018 (read digit by digit)."""
    if len(run) > 1 and all(ch in ZH_DIGITS for ch in run):
        return int("".join(str(ZH_DIGITS[ch]) for ch in run))
    total, section, digit = 0, 0, None
    for ch in run:
        if ch in ZH_DIGITS:
            digit = ZH_DIGITS[ch]
        elif ch in ZH_UNITS:
            unit = ZH_UNITS[ch]
            if unit >= 10_000:
                total = (total + section + (digit or 0)) * unit
                section = 0
            else:
                section += (1 if digit is None else digit) * unit
            digit = None
        else:
            return None
    if digit is not None and len(run) > 1 and run[-2] in ZH_UNITS and ZH_UNITS[run[-2]] >= 100:
        return total + section + digit * ZH_UNITS[run[-2]] // 10
    return total + section + (digit or 0)
