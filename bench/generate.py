"""Deterministic synthetic bilingual docs tree for the performance benchmark.

Pages come in en/zh pairs (``docs/en/<section>/<page>.md`` and ``docs/zh/...``) so the
pairing stage has real work. Each pair gets its own RNG seeded by ``(seed, index)``, so
a 2,500-file tree is a prefix of the 10,000-file tree with the same seed and results
grow comparably. Content mimics real docs: prose, lists, tables, ``bash``/``yaml`` fences,
plain ``python`` fences without async, and (``--async-share`` of pages) async examples,
some inside list items. A small share of pages mentions the marker words in prose only,
which is the prefilter's realistic false-positive case.

    python bench/generate.py --files 10000 --out /tmp/docs-10k
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import shutil
from pathlib import Path

STAMP = ".bench-stamp.json"
SECTIONS = ("get_started", "advanced", "developer_guide", "blogs", "platform", "examples", "reference", "faq")

_EN_TEXT = (
    "the model training rollout engine cluster node GPU parameter config value default option "
    "server router backend checkpoint batch size learning rate reward sample buffer data set "
    "pipeline stage worker process memory cache layer weight update step epoch loss metric log "
    "file path directory script command run start stop restart deploy launch build test check "
    "user guide example usage note warning tip see also section below above following first "
    "then next each every all some many few more less large small fast slow new old simple "
    "complex custom general specific local remote shared global token sequence length context "
    "prompt response output input format schema field key type list map table row column "
    "we you it they this that these those can should must may will would could need use set "
    "get add remove change keep make take give show read write load save send receive call "
    "and or but so if when while because since for with without from into onto over under"
)
EN_WORDS = _EN_TEXT.split()

ZH_CHARS = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下"
    "过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都"
    "两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重"
    "新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想"
    "已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知"
    "训练推理模型参数配置集群节点服务器路由后端检查点批量学习率奖励样本缓存数据管线阶段进程内存"
).replace(" ", "")
ZH_PUNCT = "，，，、；：。"

BASH_LINES = (
    "python train.py --config configs/{w}.yaml",
    "export CUDA_VISIBLE_DEVICES=0,1,2,3",
    "pip install -e .",
    "ray start --head --num-gpus 8",
    "bash scripts/run_{w}.sh --nodes 2",
    "git clone https://example.com/org/{w}.git",
    "ls -la /data/{w}",
)
YAML_KEYS = ("model", "batch_size", "lr", "nodes", "gpus", "backend", "seed", "path", "steps", "warmup")
SYNC_PY = (
    "import os\nimport json\n\n\ndef load_{w}(path):\n    with open(path) as f:\n        return json.load(f)\n",
    "from dataclasses import dataclass\n\n\n@dataclass\nclass {W}Config:\n    size: int = 8\n    name: str = '{w}'\n",
    "def reward_{w}(sample, label):\n    # simple exact-match reward\n"
    "    return float(sample.strip() == label.strip())\n",
    "for step in range(10):\n    loss = train_step(batch)\n    print(step, loss)\n",
    "def {w}_hook(args, sample):\n    sample.metadata['{w}'] = True\n    return sample\n",
)
ASYNC_PY = (
    "import asyncio\n\n\nasync def generate_{w}(args, sample):\n    # {comment}\n"
    "    result = await call_engine(args, sample)\n    return result\n",
    "async def rollout_{w}(args, samples):\n    # {comment}\n"
    "    return await asyncio.gather(*(generate(args, s) for s in samples))\n",
    "async with session.post(url, json=payload) as resp:\n    # {comment}\n    data = await resp.json()\n",
    "from concurrent import futures\n\n# {comment}\nwith futures.ThreadPoolExecutor(4) as pool:\n"
    "    results = list(pool.map(score, samples))\n",
    "import threading\n\n# {comment}\nlock = threading.Lock()\n\n\n"
    "def add_{w}(x):\n    with lock:\n        x.append(1)\n",
    "async def custom_{w}(args, sample) -> Sample\n",
)
EN_MENTIONS = (
    "The engine uses asyncio internally, so the hooks may await other calls.",
    "Rollouts run in a threading pool; see the concurrent section for details.",
    "The async server keeps one event loop per worker.",
)
ZH_MENTIONS = ("引擎内部使用 asyncio，因此钩子可以 await 其他调用。", "rollout 在 threading 线程池中运行。")


def _en_sentence(rng: random.Random) -> str:
    words = rng.choices(EN_WORDS, k=rng.randint(8, 22))
    words[0] = words[0].capitalize()
    if rng.random() < 0.3:
        words[rng.randrange(len(words))] = f"`--{rng.choice(EN_WORDS)}-{rng.choice(EN_WORDS)}`"
    return " ".join(words) + "."


def _zh_sentence(rng: random.Random) -> str:
    n = rng.randint(12, 40)
    chars = [rng.choice(ZH_CHARS) for _ in range(n)]
    for _ in range(n // 12):
        chars.insert(rng.randrange(1, len(chars)), rng.choice(ZH_PUNCT))
    if rng.random() < 0.3:
        chars.insert(rng.randrange(len(chars)), f" `--{rng.choice(EN_WORDS)}` ")
    return "".join(chars) + "。"


def _fence(lang: str, body: str, indent: str = "", rng: random.Random | None = None) -> str:
    tick = "~~~" if rng is not None and rng.random() < 0.05 else "```"
    lines = [f"{indent}{tick}{lang}"]
    lines += [f"{indent}{line}" if line else "" for line in body.rstrip("\n").split("\n")]
    lines.append(f"{indent}{tick}")
    return "\n".join(lines)


class Page:
    """One page pair: the block plan is drawn once, then written in both languages."""

    def __init__(self, rng: random.Random, with_async: bool, mention: bool, target: int) -> None:
        self.rng = rng
        self.with_async = with_async
        self.mention = mention
        self.target = target

    def blocks(self) -> list[tuple[str, dict[str, object]]]:
        rng = self.rng
        plan: list[tuple[str, dict[str, object]]] = []
        size = 0
        kinds = ("para", "para", "para", "list", "table", "bash", "yaml", "python", "heading", "quote")
        while size < self.target:
            kind = rng.choice(kinds)
            w = rng.choice(EN_WORDS).lower()
            opts: dict[str, object] = {"w": w, "n": rng.randint(2, 6), "seed": rng.random()}
            plan.append((kind, opts))
            size += {"para": 420, "list": 300, "table": 350, "bash": 150, "yaml": 120, "python": 200}.get(kind, 40)
        if self.with_async:
            for _ in range(rng.choice((1, 1, 1, 2, 3))):
                opts = {"w": rng.choice(EN_WORDS).lower(), "code": rng.choice(ASYNC_PY), "in_list": rng.random() < 0.3}
                plan.insert(rng.randrange(1, len(plan) + 1), ("async", opts))
        if self.mention:
            plan.insert(rng.randrange(1, len(plan) + 1), ("mention", {"i": rng.randrange(6)}))
        return plan

    def render(self, plan: list[tuple[str, dict[str, object]]], zh: bool, title: str) -> str:
        out = [f"# {title}", ""]
        for kind, opts in plan:
            # Text draws come from a per-block RNG so both languages share structure, not words.
            rng = random.Random(f"{opts.get('seed', 0)}:{zh}")
            sentence = functools.partial(_zh_sentence if zh else _en_sentence, rng)
            w = str(opts.get("w", "x"))
            n = int(opts.get("n", 3))  # type: ignore[call-overload]
            if kind == "para":
                out.append(" ".join(sentence() for _ in range(n)))
            elif kind == "heading":
                out.append(f"## {sentence()[:40]}")
            elif kind == "list":
                out.extend(f"- {sentence()}" if rng.random() < 0.7 else f"1. {sentence()}" for _ in range(n))
            elif kind == "quote":
                out.append(f"> {sentence()}")
            elif kind == "table":
                cols = rng.randint(2, 4)
                out.append("| " + " | ".join(f"`{rng.choice(EN_WORDS)}`" for _ in range(cols)) + " |")
                out.append("|" + " --- |" * cols)
                out.extend("| " + " | ".join(sentence()[:30] for _ in range(cols)) + " |" for _ in range(n))
            elif kind == "bash":
                lines = [rng.choice(BASH_LINES).format(w=w) for _ in range(n)]
                out.append(_fence("bash", "\n".join(lines), rng=rng))
            elif kind == "yaml":
                lines = [f"{k}: {rng.randint(1, 512)}" for k in rng.sample(YAML_KEYS, k=min(n, len(YAML_KEYS)))]
                out.append(_fence("yaml", "\n".join(lines), rng=rng))
            elif kind == "python":
                code = rng.choice(SYNC_PY).format(w=w, W=w.capitalize())
                out.append(_fence(rng.choice(("python", "python", "py", "Python")), code, rng=rng))
            elif kind == "async":
                comment = "调用推理引擎" if zh else "call the inference engine"
                code = str(opts["code"]).format(w=w, comment=comment)
                if opts["in_list"]:
                    out.append(f"1. {sentence()}")
                    out.append("")
                    out.append(_fence("python", code, indent="   " if zh else "  "))
                else:
                    out.append(_fence("python", code))
            elif kind == "mention":
                i = int(opts["i"])  # type: ignore[call-overload]
                out.append(ZH_MENTIONS[i % len(ZH_MENTIONS)] if zh else EN_MENTIONS[i % len(EN_MENTIONS)])
            out.append("")
        return "\n".join(out)


def generate(out: Path, files: int, async_share: float, seed: int, mention_share: float = 0.02) -> dict[str, int]:
    """Write ``files`` Markdown files (rounded down to pairs); returns what was written."""
    if out.exists():
        shutil.rmtree(out)
    stats = {"files": 0, "bytes": 0, "async_pages": 0}
    for index in range(files // 2):
        rng = random.Random(f"{seed}:{index}")
        section = SECTIONS[index % len(SECTIONS)]
        name = f"{section}/page_{index:05d}.md"
        with_async = rng.random() < async_share
        mention = rng.random() < mention_share
        target = int(min(max(rng.lognormvariate(8.0, 0.6), 600), 30_000))  # median ~3 KB, mean ~3.6 KB
        page = Page(rng, with_async, mention, target)
        plan = page.blocks()
        for lang in ("en", "zh"):
            text = page.render(plan, lang == "zh", f"{section} {index}")
            data = text.encode("utf-8")
            path = out / "docs" / lang / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            stats["files"] += 1
            stats["bytes"] += len(data)
            stats["async_pages"] += with_async
    return stats


def ensure(out: Path, files: int, async_share: float, seed: int) -> dict[str, int]:
    """Generate unless ``out`` already holds the same tree (the stamp records the parameters)."""
    params = {"files": files, "async_share": async_share, "seed": seed, "version": 1}
    stamp = out / STAMP
    if stamp.is_file():
        recorded = json.loads(stamp.read_text(encoding="utf-8"))
        if recorded.get("params") == params:
            return recorded["stats"]
    stats = generate(out, files, async_share, seed)
    stamp.write_text(json.dumps({"params": params, "stats": stats}), encoding="utf-8")
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=10_000, help="number of Markdown files (en + zh)")
    parser.add_argument("--async-share", type=float, default=0.01, help="share of pages with async examples")
    parser.add_argument("--out", type=Path, required=True, help="tree directory (replaced)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    stats = ensure(args.out, args.files, args.async_share, args.seed)
    print(f"{args.out}: {stats['files']} files, {stats['bytes'] / 1e6:.1f} MB, {stats['async_pages']} async pages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
