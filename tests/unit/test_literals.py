"""The ``strings`` relation: twins equal but for translated string literals (snippets.literals).

Each case is one line of an example on the English page and its line on the Chinese page,
inside the same ``async def``; the pair's relation is read from a real pairing of the two pages.
"""

from __future__ import annotations

import pytest

from docsnippets.snippets import literals


def _page(line: str) -> str:
    body = "".join(f"    {part}\n" for part in line.split("\n"))
    return f"```python\nasync def main():\n{body}    await run()\n```\n"


@pytest.fixture
def relation(inventory_of):
    def of(en: str, zh: str) -> str:
        inv = inventory_of({"docs/en/p.md": _page(en), "docs/zh/p.md": _page(zh)})
        assert len(inv.pairs) == 1, "the two examples must pair"
        return inv.pairs[0].relation

    return of


PROSE = [
    # the agentscope README twins: an address and a city, translated
    ('await func(address="Tiananmen Square", city="Beijing")', 'await func(address="天安门广场", city="北京")'),
    # positional arguments; a single word with sentence punctuation
    (
        'await hub.broadcast(Msg("Host", "Goodbye!", "assistant"))',
        'await hub.broadcast(Msg("Host", "再见！", "assistant"))',
    ),
    (
        'announcement = Msg("Host", "Introduce yourselves.", "assistant")',
        'announcement = Msg("Host", "请介绍一下自己。", "assistant")',
    ),
    # CJK on both sides, Latin on both sides of the Chinese page's own line
    ('print("你好")', 'print("您好")'),
    ('print("Hello, world", "欢迎")', 'print("你好，世界", "Welcome")'),
    # an accented Latin text counts as a translation too
    ('print("Coffee, please")', 'print("Un café, s\'il vous plaît")'),
    # f-strings: prose around the same fields, named fields reordered by the translation
    ('print(f"Hello {name}, welcome!")', 'print(f"你好 {name}，欢迎！")'),
    ('print(f"{city} weather on {day}")', 'print(f"{day}{city}的天气")'),
    ('print(f"Took {secs:.1f} s")', 'print(f"耗时 {secs:.1f} 秒")'),
    # str.format and %-formats with the same placeholders
    ('print("Hello {name}".format(name=n))', 'print("你好 {name}".format(name=n))'),
    ('print("Hello %s" % n)', 'print("你好 %s" % n)'),
    ('print("{} of {}".format(a, b))', 'print("{}，共{}".format(a, b))'),
    ('print("100% done: %(n)d files" % v)', 'print("100% 完成：%(n)d 个文件" % v)'),
    # implicit concatenation, piece by piece
    ('prompt = ("You are a helpful " "assistant.")', 'prompt = ("你是一个" "有用的助手。")'),
    # a dict's value, not its key; the key names no code
    (
        'msgs = [{"role": "user", "content": "What is the weather?"}]',
        'msgs = [{"role": "user", "content": "天气怎么样？"}]',
    ),
    # keyword arguments whose names are not code words
    ('agent = Agent(sys_prompt="You are a helpful assistant")', 'agent = Agent(sys_prompt="你是一个有用的助手")'),
    ('await agent.reply(query="How far is the moon?")', 'await agent.reply(query="月亮有多远？")'),
    # a string of several lines
    (
        'agent = Agent(sys_prompt="""You are a helpful\nassistant.""")',
        'agent = Agent(sys_prompt="""你是一个\n有用的助手。""")',
    ),
    # a translated comment and a translated string on one line
    ('await say("Good morning")  # greet', 'await say("早上好")  # 问候'),
    # a translated docstring next to a translated string
    ('"""Say hello."""\nawait say("Good morning")', '"""打个招呼。"""\nawait say("早上好")'),
    # escapes are read: a newline in an f-string
    ('print(f"Done\\n{name}")', 'print(f"完成\\n{name}")'),
]

CODE = [
    # a dict key, a subscript, a string compared or tested for membership
    ('data = {"city": x}', 'data = {"城市": x}'),
    ('value = d["name"]', 'value = d["名字"]'),
    ('value = rows[0]["full name"]', 'value = rows[0]["全名"]'),
    ('ok = answer == "yes please"', 'ok = answer == "是的"'),
    ('ok = answer in ("yes please", "y")', 'ok = answer in ("是的", "y")'),
    ('ok = "secret word" in text', 'ok = "秘密" in text'),
    # a URL, a path, a file name, an identifier-like value
    ('page = await fetch("https://example.com/docs")', 'page = await fetch("https://例子.com/文档")'),
    ('page = await load("./docs/readme")', 'page = await load("./文档/说明")'),
    ('page = await load("data.json")', 'page = await load("数据.json")'),
    ('m = Model("qwen-max")', 'm = Model("千问")'),
    ('m = Model("gpt-4o")', 'm = Model("模型")'),
    # keyword arguments, assignments and dict keys whose names say code
    ('m = Model(model="Qwen Max")', 'm = Model(model="通义千问")'),
    ('m = Msg(name="Friday", content="Hi")', 'm = Msg(name="星期五", content="Hi")'),
    ('m = Msg(role="user")', 'm = Msg(role="用户")'),
    ('m = Chat(model_name="qwen max")', 'm = Chat(model_name="千问")'),
    ('msgs = [{"role": "user", "content": "Hi there"}]', 'msgs = [{"role": "用户", "content": "Hi there"}]'),
    ('self.file_path = "my notes"', 'self.file_path = "我的笔记"'),
    ('models = ["Qwen Max"]', 'models = ["通义千问"]'),
    # an attribute or module named by a string
    ('v = getattr(obj, "title")', 'v = getattr(obj, "标题")'),
    ('mod = importlib.import_module("plugins")', 'mod = importlib.import_module("插件")'),
    # placeholders that differ, or positional ones in another order
    ('print(f"Hello {name}")', 'print(f"你好 {user}")'),
    ('print(f"Hi {user.name}")', 'print(f"你好 {user.id}")'),
    ('print("Hello {name}".format(name=n))', 'print("你好 {user}".format(name=n))'),
    ('print("%s items" % n)', 'print("%d 个" % n)'),
    ('print("%s then %d" % (a, b))', 'print("%d 然后 %s" % (a, b))'),
    ('print(f"{a} then {b}", "{} and {}".format(c, d))', 'print(f"{a} then {b}", "{1}和{0}".format(c, d))'),
    # a bytes literal
    ('await send(b"hello there")', 'await send("你好")'),
    # two different English texts: an edit, not a translation
    ('print("Hello there")', 'print("Hi there")'),
    ('print("Beijing")', 'print("Shanghai")'),
    # an annotation, a case pattern
    ('x: "Agent" = make()', 'x: "智能体" = make()'),
    ('match cmd:\n    case "stop now":\n        pass', 'match cmd:\n    case "停止":\n        pass'),
    # other code differs too, or the pieces of a concatenation do not match one by one
    ('await func(address="Tiananmen Square", city="Beijing")', 'await func(address="天安门广场", city="北京", x=1)'),
    ('prompt = ("You are a helpful " "assistant.")', 'prompt = ("你是一个有用的助手。")'),
]


@pytest.mark.parametrize(("en", "zh"), PROSE)
def test_translated_prose_strings_make_the_strings_relation(relation, en: str, zh: str):
    assert relation(en, zh) == "strings"
    assert relation(zh, en) == "strings", "the rule is the same from either side"


@pytest.mark.parametrize(("en", "zh"), CODE)
def test_a_string_that_is_code_keeps_the_pair_diverged(relation, en: str, zh: str):
    assert relation(en, zh) == "diverged"
    assert relation(zh, en) == "diverged"


def test_the_strings_relation_comes_after_the_cheaper_ones(relation):
    assert relation('print("Hi there")', 'print("Hi there")') == "identical"
    assert relation('print("Hi there")  # say it', 'print("Hi there")  # 说') == "comments"


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("model", True),
        ("model_name", True),
        ("modelName", True),
        ("api_key", True),
        ("base_url", True),
        ("file_paths", True),
        ("ROLE", True),
        ("content", False),
        ("sys_prompt", False),
        ("address", False),
        ("city", False),
        ("keynote", False),
    ],
)
def test_which_names_say_code(name: str, code: bool):
    assert literals.names_code(name) is code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Beijing", False),
        ("Goodbye!", False),
        ("don't", False),
        ("天安门广场", False),
        ("Tiananmen Square", False),
        ("see https://example.com for more", False),
        ("qwen-max", True),
        ("OPENAI_API_KEY", True),
        ("utf-8", True),
        ("a.b", True),
        ("数据.json", True),
        ("https://example.com", True),
        ("www.example.com", True),
        ("mailto:me@example.com", True),
        ("docs/数据", True),
        ("", True),
        ("， ", True),
        ("42", True),
    ],
)
def test_which_texts_are_code_by_what_they_hold(text: str, code: bool):
    assert literals.code_shaped(text) is code


def test_a_literal_too_long_to_read_counts_as_code(relation):
    long_en, long_zh = "Hello there " * 2000, "你好" * 12000
    assert len(long_en) > literals.MAX_READ_CHARS and len(long_zh) > literals.MAX_READ_CHARS
    assert relation(f'print("{long_en}")', f'print("{long_zh}")') == "diverged"
    assert relation(f'print("{long_en[:1000]}")', f'print("{long_zh[:1000]}")') == "strings"
