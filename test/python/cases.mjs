// Scripts of the kinds agents write, run both by the session's python3 (test/python/table.test.ts)
// and by Debian's python3.11 as `nobody` (test/python/reference.global.mjs) in a directory holding
// the same files. stdout, stderr and the exit code must be equal (after NORMALIZE).
//
// A case: { name, files: {path: text}, run: shell command line (bash, cwd = the files), stdin? }.
// Scripts avoid what legitimately differs between machines: pids, uids, sys.platform, the
// clock, hash-randomized set order of strings, unsorted directory listings.

const DATA_CSV = "name,dept,salary,start\nAda,eng,120,2019-03-01\nBob,ops,90,2020-07-15\nCy,eng,110,2021-01-10\nDee,sales,80,2018-11-30\nEve,ops,95,2022-05-05\n";
const DATA_JSON =
  JSON.stringify(
    {
      users: [
        { id: 1, name: "ada", tags: ["a", "b"], active: true },
        { id: 2, name: "bob", tags: [], active: false },
        { id: 3, name: "cy", tags: ["b"], active: true },
      ],
      meta: { count: 3, source: "test" },
    },
    null,
    2,
  ) + "\n";
const LOG =
  "2024-01-01 10:00:01 INFO start\n2024-01-01 10:00:02 WARN disk 91%\n2024-01-01 10:00:05 ERROR failed id=42\n2024-01-01 10:01:00 INFO done\n2024-01-01 10:02:00 ERROR failed id=7\n";

/** Files most cases see. */
export const COMMON_FILES = {
  "data.csv": DATA_CSV,
  "data.json": DATA_JSON,
  "app.log": LOG,
  "src/a.py": "def add(a, b):\n    return a + b\n",
  "src/pkg/__init__.py": "VERSION = '1.2'\n",
  "src/pkg/util.py": "def shout(s):\n    return s.upper() + '!'\n",
  "notes/one.txt": "alpha\nbeta\n",
  "notes/two.md": "# Title\n\nbody text\n",
  "mylib.py": "def greet(name):\n    return f'hello {name}'\n",
};

/** A case running `main.py` with the given code (and extra args). */
const py = (name, code, extra = {}) => ({
  name,
  files: { ...COMMON_FILES, "main.py": code, ...(extra.files ?? {}) },
  run: extra.run ?? `python3 main.py${extra.args ? " " + extra.args : ""}`,
  stdin: extra.stdin,
});
const shq = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

export const PY_CASES = [
  // --- JSON ---
  py("json load and filter", "import json\nd = json.load(open('data.json'))\nprint([u['name'] for u in d['users'] if u['active']])\n"),
  py("json dump sorted indent", "import json\nd = json.load(open('data.json'))\nprint(json.dumps(d['meta'], sort_keys=True, indent=2))\n"),
  py(
    "json reshape to csv",
    "import json, csv, sys\nd = json.load(open('data.json'))\nw = csv.writer(sys.stdout)\nw.writerow(['id','name','ntags'])\nfor u in d['users']:\n    w.writerow([u['id'], u['name'], len(u['tags'])])\n",
  ),
  py("json error traceback", "import json\njson.loads('{\"a\": 1,}')\n"),
  py("json write file then read", "import json\nwith open('out.json','w') as f:\n    json.dump({'b': [1,2], 'a': None}, f)\nprint(open('out.json').read())\n"),
  py("json unicode", "import json\nprint(json.dumps({'k': 'héllo ☃'}))\nprint(json.dumps({'k': 'héllo ☃'}, ensure_ascii=False))\n"),
  run("json.tool pretty print", "python3 -m json.tool data.json"),
  run("json.tool from stdin", 'echo \'{"b":1,"a":[1,2]}\' | python3 -m json.tool --sort-keys'),
  run("json.tool bad input", "echo '{bad' | python3 -m json.tool"),
  py("json lines", "import json\nrows = [json.loads(l) for l in open('rows.jsonl')]\nprint(sum(r['n'] for r in rows), max(rows, key=lambda r: r['n'])['id'])\n", {
    files: { "rows.jsonl": '{"id":"a","n":3}\n{"id":"b","n":9}\n{"id":"c","n":1}\n' },
  }),
  py(
    "json default and custom encoder",
    "import json, datetime, decimal\nclass E(json.JSONEncoder):\n    def default(self, o):\n        if isinstance(o, decimal.Decimal): return str(o)\n        return super().default(o)\nprint(json.dumps({'d': decimal.Decimal('1.10')}, cls=E))\ntry:\n    json.dumps({'x': object()})\nexcept TypeError as e:\n    print('TypeError', str(e)[:40])\n",
  ),
  // --- CSV ---
  py(
    "csv DictReader group sum",
    "import csv\nfrom collections import defaultdict\nt = defaultdict(int)\nfor r in csv.DictReader(open('data.csv')):\n    t[r['dept']] += int(r['salary'])\nfor k in sorted(t): print(k, t[k])\n",
  ),
  py(
    "csv sort and write",
    "import csv, sys\nrows = list(csv.DictReader(open('data.csv')))\nrows.sort(key=lambda r: -int(r['salary']))\nw = csv.DictWriter(sys.stdout, fieldnames=['name','salary'], extrasaction='ignore', lineterminator='\\n')\nw.writeheader()\nw.writerows(rows)\n",
  ),
  py(
    "csv quoting",
    "import csv, io\nbuf = io.StringIO()\ncsv.writer(buf).writerows([['a,b', 'say \"hi\"', 'x\\ny'], [1, 2.5, None]])\nprint(repr(buf.getvalue()))\nprint(list(csv.reader(io.StringIO(buf.getvalue()))))\n",
  ),
  py("csv sniffer tsv", "import csv\ntext = 'a\\tb\\tc\\n1\\t2\\t3\\n'\nd = csv.Sniffer().sniff(text)\nprint(repr(d.delimiter))\n"),
  run("csv from stdin pipeline", "cat data.csv | python3 -c 'import sys,csv\nfor r in csv.reader(sys.stdin):\n    print(r[0].lower())' | sort"),
  py("csv to json", "import csv, json\nprint(json.dumps(list(csv.DictReader(open('data.csv')))[:2], indent=1))\n"),
  // --- files ---
  py("os.walk sorted", "import os\nfor root, dirs, files in os.walk('.'):\n    dirs.sort()\n    for f in sorted(files):\n        print(os.path.join(root, f))\n"),
  py("pathlib rglob", "from pathlib import Path\nprint(sorted(str(p) for p in Path('.').rglob('*.py')))\n"),
  py(
    "pathlib read write",
    "from pathlib import Path\np = Path('out') / 'x.txt'\np.parent.mkdir(exist_ok=True)\np.write_text('one\\ntwo\\n')\nprint(p.read_text().splitlines(), p.stat().st_size, p.suffix, p.stem)\n",
  ),
  py("glob", "import glob\nprint(sorted(glob.glob('notes/*')))\nprint(sorted(glob.glob('**/*.py', recursive=True)))\n"),
  py("file not found traceback", "open('missing.txt')\n"),
  py("file not found handled", "try:\n    open('missing.txt')\nexcept FileNotFoundError as e:\n    print('no:', e.filename, e.errno)\n"),
  py(
    "shutil copy move rmtree",
    "import shutil, os\nshutil.copytree('notes', 'n2')\nshutil.move('n2/one.txt', 'n2/uno.txt')\nprint(sorted(os.listdir('n2')))\nshutil.rmtree('n2')\nprint(os.path.exists('n2'))\n",
  ),
  py("os.makedirs exists error", "import os\nos.makedirs('d/e/f')\nos.makedirs('d/e/f')\n"),
  py("line counts", "import os\nfor p in ['data.csv', 'app.log', 'notes/one.txt']:\n    with open(p) as f:\n        print(p, sum(1 for _ in f))\n"),
  py(
    "append and seek",
    "with open('f.txt', 'w') as f: f.write('abc')\nwith open('f.txt', 'a') as f: f.write('def')\nwith open('f.txt', 'r+') as f:\n    f.seek(2); print(f.read(2)); f.seek(0); f.write('X')\nprint(open('f.txt').read())\n",
  ),
  py("binary files", "data = bytes(range(256))\nopen('b.bin', 'wb').write(data)\nb = open('b.bin', 'rb').read()\nprint(len(b), b[:4], b[-2:], b == data)\n"),
  py(
    "os.stat and rename and remove",
    "import os\nopen('t','w').write('12345')\nprint(os.stat('t').st_size)\nos.rename('t','u')\nprint(os.path.isfile('u'), os.path.isfile('t'))\nos.remove('u')\nprint(os.listdir('.') .count('u'))\n",
  ),
  py("is a directory error", "open('notes')\n"),
  py(
    "tempfile in tmp",
    "import tempfile, os\nwith tempfile.TemporaryDirectory() as d:\n    p = os.path.join(d, 'x')\n    open(p, 'w').write('hi')\n    print(open(p).read(), os.path.isdir(d))\nprint(os.path.isdir(d))\n",
  ),
  py(
    "fileinput",
    "import fileinput\nfor line in fileinput.input(['notes/one.txt', 'notes/two.md']):\n    print(fileinput.filename(), fileinput.filelineno(), line.rstrip())\n",
  ),
  // --- regex / text ---
  py("regex log errors", "import re\nfor line in open('app.log'):\n    m = re.search(r'ERROR failed id=(\\d+)', line)\n    if m: print(m.group(1))\n"),
  py("regex sub with function", "import re\nprint(re.sub(r'\\d+', lambda m: str(int(m.group()) * 2), 'a1 b22 c333'))\n"),
  py(
    "regex named groups findall",
    "import re\ntext = open('app.log').read()\nfor d in re.finditer(r'(?P<time>\\d\\d:\\d\\d:\\d\\d) (?P<lvl>[A-Z]+)', text):\n    print(d.groupdict())\n",
  ),
  py("regex error", "import re\nre.compile('a(b')\n"),
  py("regex split flags", "import re\nprint(re.split(r'[,;]\\s*', 'a, b;c ;d'))\nprint(re.findall(r'^b', 'a\\nb\\nB', re.M | re.I))\n"),
  py(
    "string methods",
    "s = '  Hello, World  '\nprint(s.strip().lower().replace('world', 'there').title().center(20, '*'))\nprint('a-b-c'.split('-', 1), 'x'.join('abc'), 'abc'.zfill(6))\n",
  ),
  py(
    "textwrap and format",
    "import textwrap\nprint(textwrap.fill('the quick brown fox jumps over the lazy dog ' * 3, width=30))\nprint(textwrap.dedent('   a\\n   b'))\nprint(f'{3.14159:8.3f}|{42:>6}|{\"x\":^5}|{1234567:,}')\n",
  ),
  py(
    "difflib unified",
    "import difflib, sys\na = ['one\\n','two\\n','three\\n']\nb = ['one\\n','2\\n','three\\n','four\\n']\nsys.stdout.writelines(difflib.unified_diff(a, b, 'a.txt', 'b.txt'))\n",
  ),
  py(
    "unicode normalize",
    "import unicodedata\ns = 'Ça déjà vu'\nprint(unicodedata.normalize('NFKD', s).encode('ascii', 'ignore').decode())\nprint(unicodedata.name('☃'), len('naïve'), 'straße'.upper())\n",
  ),
  py(
    "string template and formatting",
    "from string import Template\nprint(Template('$who likes $what').substitute(who='ada', what='tea'))\nprint('%s=%05.1f' % ('x', 3.14159), '{0}{1}{0}'.format('a','b'))\n",
  ),
  // --- dates ---
  py(
    "datetime arithmetic",
    "from datetime import datetime, timedelta, date\nd = datetime(2024, 2, 28, 23, 30)\nprint(d + timedelta(hours=1), (date(2024,12,25) - date(2024,1,1)).days)\nprint(d.strftime('%A %d %B %Y %H:%M'), d.isoformat())\n",
  ),
  py(
    "strptime and sort",
    "from datetime import datetime\nrows = [l.split(',') for l in open('data.csv').read().splitlines()[1:]]\nrows.sort(key=lambda r: datetime.strptime(r[3], '%Y-%m-%d'))\nprint([r[0] for r in rows])\n",
  ),
  py("strptime error", "from datetime import datetime\ndatetime.strptime('2024-13-01', '%Y-%m-%d')\n"),
  py(
    "timezone utc offset",
    "from datetime import datetime, timezone, timedelta\nt = datetime(2024, 1, 1, 12, tzinfo=timezone.utc)\nprint(t.astimezone(timezone(timedelta(hours=5, minutes=30))).isoformat())\nprint(datetime.fromisoformat('2024-03-10T08:00:00+02:00').utcoffset())\n",
  ),
  py("calendar", "import calendar\nprint(calendar.month(2024, 2))\nprint(calendar.isleap(2024), calendar.monthrange(2023, 2))\n"),
  py(
    "log time deltas",
    "from datetime import datetime\nts = [datetime.strptime(l[:19], '%Y-%m-%d %H:%M:%S') for l in open('app.log')]\nprint([(b - a).total_seconds() for a, b in zip(ts, ts[1:])])\n",
  ),
  // --- collections / itertools / functools ---
  py("Counter most_common", "from collections import Counter\nwords = 'the cat and the hat and the bat'.split()\nprint(Counter(words).most_common(2))\n"),
  py(
    "defaultdict and OrderedDict",
    "from collections import defaultdict, OrderedDict\nd = defaultdict(list)\nfor k, v in [('a',1),('b',2),('a',3)]: d[k].append(v)\nprint(dict(d))\no = OrderedDict(a=1, b=2); o.move_to_end('a'); print(list(o))\n",
  ),
  py(
    "namedtuple and dataclass",
    "from collections import namedtuple\nfrom dataclasses import dataclass, field, asdict\nP = namedtuple('P', 'x y')\nprint(P(1, 2), P(1, 2)._asdict())\n@dataclass(order=True)\nclass Item:\n    price: float\n    name: str = 'x'\n    tags: list = field(default_factory=list)\nprint(sorted([Item(3.5, 'b'), Item(1.0, 'a')]), asdict(Item(2)))\n",
  ),
  py(
    "deque and heapq",
    "from collections import deque\nimport heapq\nq = deque(maxlen=3)\nfor i in range(5): q.append(i)\nprint(q)\nprint(heapq.nsmallest(3, [5, 1, 8, 3, 9, 2]), heapq.nlargest(2, 'hello'))\n",
  ),
  py(
    "itertools",
    "import itertools as it\nprint(list(it.combinations('abc', 2)), list(it.permutations([1,2,3], 2))[:3])\nprint([(k, len(list(g))) for k, g in it.groupby('aaabbc')], list(it.accumulate([1,2,3,4])))\nprint(list(it.islice(it.count(10, 5), 4)), list(it.chain.from_iterable([[1],[2,3]])))\n",
  ),
  py(
    "functools",
    "import functools\n@functools.lru_cache(maxsize=None)\ndef fib(n): return n if n < 2 else fib(n-1) + fib(n-2)\nprint(fib(80), fib.cache_info().hits > 0)\nprint(functools.reduce(lambda a, b: a * b, range(1, 11)))\np = functools.partial(int, base=2); print(p('1011'))\n",
  ),
  py(
    "sorting with keys",
    "rows = [('b', 2), ('a', 2), ('c', 1)]\nprint(sorted(rows, key=lambda r: (-r[1], r[0])))\nimport operator\nprint(sorted(rows, key=operator.itemgetter(1)))\n",
  ),
  py("dict comprehension and merge", "a = {'x': 1, 'y': 2}\nb = {'y': 3, 'z': 4}\nprint(a | b, {k: v * 2 for k, v in a.items()}, {**a, **b} == a | b)\n"),
  py(
    "bisect and statistics",
    "import bisect, statistics\nxs = [1, 3, 3, 5, 8]\nprint(bisect.bisect_left(xs, 3), bisect.bisect_right(xs, 3))\nprint(statistics.mean(xs), statistics.median(xs), statistics.mode(xs), round(statistics.stdev(xs), 4))\n",
  ),
  // --- numbers ---
  py(
    "decimal and fractions",
    "from decimal import Decimal, getcontext\nfrom fractions import Fraction\nprint(Decimal('0.1') + Decimal('0.2'), Decimal(1) / Decimal(7))\ngetcontext().prec = 5\nprint(Decimal(1) / Decimal(7), Fraction(3, 4) + Fraction(1, 6))\n",
  ),
  py(
    "math and floats",
    "import math\nprint(math.sqrt(2), math.pi, math.factorial(20), math.gcd(84, 36), math.isclose(0.1+0.2, 0.3))\nprint(0.1 + 0.2, round(2.675, 2), 1e300 * 1e10, float('nan') == float('nan'), 2 ** 100)\n",
  ),
  py("integer division errors", "print(7 // 2, -7 // 2, 7 % -3, divmod(17, 5))\nprint(1 / 0)\n"),
  py("big ints and bases", "print(int('ff', 16), hex(255), bin(10), oct(8), (2**64).bit_length(), int('1_000'))\nprint(str(3**200)[:20])\n"),
  py(
    "random with seed",
    "import random\nrandom.seed(42)\nprint(random.randint(1, 100), random.choice('abcdef'), round(random.random(), 6))\nx = list(range(10)); random.shuffle(x); print(x)\n",
  ),
  // --- argparse ---
  py(
    "argparse basic",
    "import argparse\np = argparse.ArgumentParser(prog='tool')\np.add_argument('name')\np.add_argument('-n', '--count', type=int, default=1)\np.add_argument('--upper', action='store_true')\na = p.parse_args()\nfor _ in range(a.count): print(a.name.upper() if a.upper else a.name)\n",
    { args: "ada -n 2 --upper" },
  ),
  py(
    "argparse help",
    "import argparse\np = argparse.ArgumentParser(prog='tool', description='Does things.')\np.add_argument('path', help='input file')\np.add_argument('-v', '--verbose', action='count', default=0)\np.parse_args()\n",
    { args: "--help" },
  ),
  py(
    "argparse missing arg",
    "import argparse\np = argparse.ArgumentParser(prog='tool')\np.add_argument('path')\np.add_argument('--mode', choices=['a', 'b'])\np.parse_args()\n",
  ),
  py("argparse bad choice", "import argparse\np = argparse.ArgumentParser(prog='tool')\np.add_argument('--mode', choices=['a', 'b'])\nprint(p.parse_args())\n", {
    args: "--mode c",
  }),
  py(
    "argparse subcommands",
    "import argparse\np = argparse.ArgumentParser(prog='git2')\ns = p.add_subparsers(dest='cmd', required=True)\na = s.add_parser('add'); a.add_argument('files', nargs='+')\nc = s.add_parser('commit'); c.add_argument('-m', required=True)\nprint(vars(p.parse_args()))\n",
    { args: "add x y" },
  ),
  py("sys.argv", "import sys\nprint(sys.argv[1:], len(sys.argv))\n", { args: "'a b' c \"\" --x=1" }),
  // --- unittest ---
  py(
    "unittest pass",
    "import unittest\nclass T(unittest.TestCase):\n    def test_a(self): self.assertEqual(1 + 1, 2)\n    def test_b(self): self.assertIn('a', 'abc')\nunittest.main()\n",
  ),
  py(
    "unittest failure",
    "import unittest\nclass T(unittest.TestCase):\n    def test_ok(self): self.assertTrue(True)\n    def test_bad(self): self.assertEqual([1, 2], [1, 3])\nunittest.main()\n",
  ),
  py(
    "unittest verbose with error",
    "import unittest\nclass T(unittest.TestCase):\n    def test_err(self): {}['k']\n    def test_skip(self): self.skipTest('later')\nunittest.main(verbosity=2)\n",
  ),
  run("unittest discover module", "python3 -m unittest test_mylib", {
    "test_mylib.py":
      "import unittest\nfrom mylib import greet\nclass G(unittest.TestCase):\n    def test_greet(self):\n        self.assertEqual(greet('x'), 'hello x')\n",
  }),
  run("unittest -v discover", "python3 -m unittest -v", {
    "test_one.py": "import unittest\nclass A(unittest.TestCase):\n    def test_x(self): pass\n    def test_y(self): self.assertRaises(ValueError, int, 'z')\n",
  }),
  py("doctest", "def sq(x):\n    '''\n    >>> sq(3)\n    9\n    >>> sq(2)\n    5\n    '''\n    return x * x\nimport doctest\ndoctest.testmod()\n"),
  // --- sqlite3 module ---
  py(
    "sqlite3 in memory",
    "import sqlite3\nc = sqlite3.connect(':memory:')\nc.execute('create table t(a int, b text)')\nc.executemany('insert into t values (?, ?)', [(1, 'x'), (2, 'y'), (3, 'x')])\nprint(c.execute('select b, count(*), sum(a) from t group by b order by b').fetchall())\n",
  ),
  py(
    "sqlite3 file db",
    "import sqlite3\nc = sqlite3.connect('app.db')\nc.execute('create table if not exists kv(k primary key, v)')\nc.execute(\"insert or replace into kv values ('a', 1)\")\nc.commit(); c.close()\nc = sqlite3.connect('app.db')\nprint(c.execute('select * from kv').fetchall())\nimport os; print(os.path.getsize('app.db') > 0)\n",
  ),
  py(
    "sqlite3 csv import and query",
    "import sqlite3, csv\nc = sqlite3.connect(':memory:')\nc.execute('create table e(name, dept, salary int, start)')\nc.executemany('insert into e values (?,?,?,?)', csv.reader(list(open('data.csv'))[1:]))\nfor row in c.execute('select dept, avg(salary) from e group by dept order by 2 desc'): print(row)\n",
  ),
  py(
    "sqlite3 row factory and json",
    "import sqlite3\nc = sqlite3.connect(':memory:')\nc.row_factory = sqlite3.Row\nr = c.execute(\"select 1 as a, 'x' as b, json_object('k', 2) as j\").fetchone()\nprint(dict(r), r['j'])\n",
  ),
  py("sqlite3 error", "import sqlite3\nc = sqlite3.connect(':memory:')\nc.execute('select * from nope')\n"),
  py(
    "sqlite3 integrity error",
    "import sqlite3\nc = sqlite3.connect(':memory:')\nc.execute('create table t(id integer primary key, u text unique)')\nc.execute(\"insert into t(u) values ('a')\")\ntry:\n    c.execute(\"insert into t(u) values ('a')\")\nexcept sqlite3.IntegrityError as e:\n    print('IntegrityError:', e)\nprint(sqlite3.sqlite_version_info >= (3, 30))\n",
  ),
  py(
    "sqlite3 transactions rollback",
    "import sqlite3\nc = sqlite3.connect('t.db')\nc.execute('create table t(x)')\nc.commit()\nc.execute('insert into t values (1)')\nc.rollback()\nwith c:\n    c.execute('insert into t values (2)')\nprint(c.execute('select * from t').fetchall())\n",
  ),
  py(
    "sqlite3 fts5 and math",
    "import sqlite3\nc = sqlite3.connect(':memory:')\nc.execute('create virtual table d using fts5(body)')\nc.executemany('insert into d values (?)', [('hello world',), ('goodbye world',), ('hello there',)])\nprint(c.execute(\"select body from d where d match 'hello' order by rowid\").fetchall())\nprint(c.execute('select sqrt(16), power(2, 10)').fetchone())\n",
  ),
  // --- compression / archives ---
  py(
    "gzip roundtrip",
    "import gzip\nwith gzip.open('x.gz', 'wt') as f: f.write('hello\\n' * 100)\nwith gzip.open('x.gz', 'rt') as f: t = f.read()\nprint(len(t), t[:6], gzip.decompress(gzip.compress(b'abc')))\n",
  ),
  py(
    "zlib crc and compress",
    "import zlib\nd = b'abc' * 1000\nc = zlib.compress(d, 9)\nprint(len(c), zlib.decompress(c) == d, zlib.crc32(b'hello'), zlib.adler32(b'hello'))\n",
  ),
  py(
    "zipfile write and list",
    "import zipfile\nwith zipfile.ZipFile('a.zip', 'w', zipfile.ZIP_DEFLATED) as z:\n    z.write('data.csv')\n    z.writestr('inner/x.txt', 'x' * 1000)\nwith zipfile.ZipFile('a.zip') as z:\n    for i in z.infolist(): print(i.filename, i.file_size, i.compress_type)\n    print(z.read('inner/x.txt')[:3])\n",
  ),
  py(
    "tarfile gz",
    "import tarfile\nwith tarfile.open('a.tgz', 'w:gz') as t:\n    t.add('notes')\nwith tarfile.open('a.tgz') as t:\n    print(sorted(t.getnames()))\n    print(t.extractfile('notes/one.txt').read())\n",
  ),
  // bz2 and lzma: CPython's _bz2 and _lzma over libbz2 1.0.8 and liblzma 5.4.1 built from Debian's
  // bzip2 and xz-utils, the same versions Debian's python3.11 links: the compressed bytes are equal.
  // xz compression at presets 4-9 (the default is 6) needs 48-674 MiB, over a session program's
  // 64 MiB: MemoryError there (test/python/limits.test.ts), so these compress at preset 3 or less.
  py(
    "bz2 compress decompress",
    "import bz2, hashlib\nd = b'hello bz2\\n' * 5000\nfor level in (1, 9):\n    c = bz2.compress(d, level)\n    print(level, len(c), hashlib.sha256(c).hexdigest()[:16], bz2.decompress(c) == d)\nco = bz2.BZ2Compressor()\nc = co.compress(b'abc' * 100) + co.compress(b'def') + co.flush()\nde = bz2.BZ2Decompressor()\nprint(de.decompress(c[:10]), len(de.decompress(c[10:])), de.eof, de.unused_data)\nprint(bz2.decompress(bz2.compress(b'one') + bz2.compress(b'two')))\n",
  ),
  py(
    "bz2.open text and binary files",
    "import bz2\nwith bz2.open('notes.txt.bz2', 'wt', encoding='utf-8') as f:\n    for i in range(1000): f.write(f'line {i} \\u00e9\\n')\nwith bz2.open('notes.txt.bz2', 'rt', encoding='utf-8') as f:\n    lines = f.readlines()\nprint(len(lines), lines[0], lines[-1], end='')\nwith bz2.BZ2File('notes.txt.bz2') as f:\n    f.seek(5)\n    print(f.read(10), f.tell())\nwith bz2.open('data.csv.bz2', 'wb') as f: f.write(open('data.csv', 'rb').read())\nprint(bz2.open('data.csv.bz2').read() == open('data.csv', 'rb').read())\n",
  ),
  py(
    "bz2 bad data",
    "import bz2\ntry:\n    bz2.decompress(b'BZh9 not really bzip2 data')\nexcept OSError as e:\n    print(type(e).__name__, e)\nbz2.decompress(b'definitely not')\n",
  ),
  py(
    "lzma compress decompress",
    "import lzma, hashlib\nd = b'hello xz\\n' * 5000\nfor fmt, check in ((lzma.FORMAT_XZ, lzma.CHECK_CRC64), (lzma.FORMAT_XZ, lzma.CHECK_SHA256), (lzma.FORMAT_ALONE, -1)):\n    c = lzma.compress(d, format=fmt, check=check, preset=3)\n    print(fmt, len(c), hashlib.sha256(c).hexdigest()[:16], lzma.decompress(c) == d)\nfilters = [{'id': lzma.FILTER_DELTA, 'dist': 4}, {'id': lzma.FILTER_LZMA2, 'preset': 2 | lzma.PRESET_EXTREME}]\nc = lzma.compress(d, format=lzma.FORMAT_RAW, filters=filters)\nprint(len(c), lzma.decompress(c, format=lzma.FORMAT_RAW, filters=filters) == d)\nprint(lzma.is_check_supported(lzma.CHECK_SHA256), lzma.is_check_supported(lzma.CHECK_CRC32))\nde = lzma.LZMADecompressor()\nprint(len(de.decompress(lzma.compress(b'abc' * 100, preset=1))), de.check, de.eof)\n",
  ),
  py(
    "lzma.open text and binary files",
    "import lzma\nwith lzma.open('log.xz', 'wt', preset=3) as f:\n    f.write(open('app.log').read() * 50)\nwith lzma.open('log.xz', 'rt') as f:\n    errors = [l for l in f if 'ERROR' in l]\nprint(len(errors), errors[0], end='')\nwith lzma.LZMAFile('log.xz') as f:\n    f.seek(11)\n    print(f.read(8))\nwith lzma.open('x.lzma', 'wb', format=lzma.FORMAT_ALONE, preset=1) as f: f.write(b'alone ' * 10)\nprint(lzma.open('x.lzma', format=lzma.FORMAT_ALONE).read()[:12])\n",
  ),
  py(
    "lzma bad data",
    "import lzma\ntry:\n    lzma.decompress(b'\\xfd7zXZ\\x00 garbage')\nexcept lzma.LZMAError as e:\n    print(type(e).__name__, e)\nlzma.decompress(b'not xz at all')\n",
  ),
  py(
    "tarfile w:bz2 and w:xz",
    "import tarfile, io, hashlib\nfor mode in ('w:bz2', 'w:xz'):\n    name = 'a.tar.' + mode[2:]\n    with tarfile.open(name, mode, **({'preset': 3} if mode == 'w:xz' else {})) as t:\n        for n in ('a.txt', 'dir/b.txt'):\n            data = (n * 100).encode()\n            info = tarfile.TarInfo(n)\n            info.size = len(data)\n            t.addfile(info, io.BytesIO(data))\n    raw = open(name, 'rb').read()\n    with tarfile.open(name) as t:\n        print(mode, raw[:3], hashlib.sha256(raw).hexdigest()[:16], t.getnames(), t.extractfile('dir/b.txt').read()[:9])\nwith tarfile.open('notes.tar.xz', 'w:xz', preset=0) as t: t.add('notes')\nwith tarfile.open('notes.tar.xz', 'r:*') as t: print(sorted(t.getnames()))\n",
  ),
  py(
    "zipfile bzip2 members, shutil formats",
    "import zipfile, shutil\nwith zipfile.ZipFile('c.zip', 'w') as z:\n    z.writestr('b.txt', 'b' * 5000, compress_type=zipfile.ZIP_BZIP2)\n    z.writestr('c.txt', 'c' * 5000, compress_type=zipfile.ZIP_BZIP2, compresslevel=1)\nwith zipfile.ZipFile('c.zip') as z:\n    for i in z.infolist(): print(i.filename, i.compress_type, i.file_size, len(z.read(i)))\nprint([f for f, _ in shutil.get_archive_formats()])\nshutil.make_archive('notes', 'bztar', '.', 'notes')\nshutil.unpack_archive('notes.tar.bz2', 'out')\nprint(open('out/notes/one.txt').read(), end='')\n",
  ),
  run("tarfile -m with bz2", "python3 -m tarfile -c notes.tar.bz2 notes && python3 -m tarfile -l notes.tar.bz2 | sort"),
  // Files compressed by Debian's own bzip2 and xz (test/python/reference.global.mjs makes them and
  // hands them to both sides as base64).
  {
    ...py(
      "reads .bz2 and .xz made by bzip2 and xz",
      "import bz2, lzma\nprint(bz2.open('made.txt.bz2', 'rt').read() == lzma.open('made.txt.xz', 'rt').read(), end=' ')\nprint(lzma.decompress(open('made.txt.xz', 'rb').read())[:20])\nwith lzma.open('made.txt.xz', 'rt') as f: print(sum(1 for _ in f))\nprint(len(bz2.decompress(open('made.txt.bz2', 'rb').read())))\n",
      { run: "base64 -d made.txt.bz2.b64 > made.txt.bz2 && base64 -d made.txt.xz.b64 > made.txt.xz && python3 main.py" },
    ),
    madeByDebian: { "made.txt.bz2.b64": ["bzip2", "-9c"], "made.txt.xz.b64": ["xz", "-6c"], input: "made by Debian's compressors\n".repeat(300) },
  },
  run("zipfile -m create list", "python3 -m zipfile -c out.zip notes && python3 -m zipfile -l out.zip | awk '{print $1}'"),
  run("gzip -m", "python3 -m gzip notes/one.txt && ls notes && python3 -m gzip -d notes/one.txt.gz && cat notes/one.txt"),
  run("base64 -m", "echo hello | python3 -m base64 && echo aGVsbG8K | python3 -m base64 -d"),
  py(
    "hashlib",
    "import hashlib\nprint(hashlib.md5(b'abc').hexdigest(), hashlib.sha1(b'abc').hexdigest())\nprint(hashlib.sha256(open('data.csv','rb').read()).hexdigest(), hashlib.blake2b(b'x', digest_size=8).hexdigest())\n",
  ),
  py(
    "base64 binascii uuid5",
    "import base64, binascii, uuid\nprint(base64.b64encode(b'\\x00\\xffhi'), base64.urlsafe_b64decode('aGk='), binascii.hexlify(b'AB'))\nprint(uuid.uuid5(uuid.NAMESPACE_DNS, 'example.com'))\n",
  ),
  // --- tracebacks and exit codes ---
  py("uncaught exception", "def f(x):\n    return g(x)\ndef g(x):\n    return x['missing']\nf({})\n"),
  py("syntax error", "print('a'\nx = 1\n"),
  py("indentation error", "def f():\nreturn 1\n"),
  py("name error suggestion", "value = 1\nprint(valeu)\n"),
  py("attribute error suggestion", "import os\nos.pathh\n"),
  py("chained exceptions", "try:\n    int('x')\nexcept ValueError as e:\n    raise RuntimeError('wrap') from e\n"),
  py("exception group", "raise ExceptionGroup('many', [ValueError('a'), TypeError('b')])\n"),
  py("sys.exit codes", "import sys\nprint('before')\nsys.exit(3)\n"),
  py("sys.exit message", "import sys\nsys.exit('fatal: bad input')\n"),
  py("raise SystemExit 0", "raise SystemExit(0)\n"),
  py("assert failure", "x = 2\nassert x == 3, f'x was {x}'\n"),
  py("KeyboardInterrupt exit", "raise KeyboardInterrupt\n"),
  py("stderr and stdout", "import sys\nprint('out1')\nprint('err1', file=sys.stderr)\nsys.stdout.write('out2\\n')\n"),
  py("warnings", "import warnings\nwarnings.warn('careful', DeprecationWarning)\nwarnings.warn('heads up')\nprint('done')\n"),
  py(
    "logging to stderr",
    "import logging\nlogging.basicConfig(level=logging.INFO, format='%(levelname)s:%(name)s:%(message)s')\nlogging.info('hello')\nlogging.getLogger('app').warning('w %d', 3)\nlogging.debug('hidden')\n",
  ),
  py("traceback module", "import traceback\ntry:\n    [][1]\nexcept IndexError:\n    traceback.print_exc()\nprint('after')\n"),
  run("exit code in shell", "python3 -c 'import sys; sys.exit(7)'; echo \"status $?\""),
  run("python3 -c error status", 'python3 -c \'raise ValueError("boom")\'; echo "status $?"'),
  run("missing script", 'python3 nope.py; echo "status $?"'),
  run("module not found", "python3 -c 'import requests'; echo \"status $?\""),
  // --- interpreter options / stdin ---
  run("python3 -V", "python3 -V && python3 --version"),
  run("heredoc script", "python3 - <<'EOF'\nimport sys\nprint('from heredoc', sys.argv)\nEOF"),
  run("heredoc with args", "python3 - a b <<'EOF'\nimport sys\nprint(sys.argv)\nEOF"),
  run("script from stdin", "echo 'print(6*7)' | python3"),
  run("stdin read lines", "printf 'b\\na\\nc\\n' | python3 -c 'import sys; print(sorted(l.strip() for l in sys.stdin))'"),
  run("-u -B -I flags", "python3 -u -B -I -c 'import sys; print(sys.flags.isolated, sys.dont_write_bytecode)'"),
  run("import own module from cwd", "python3 -c 'import mylib; print(mylib.greet(\"ada\"))'"),
  run("script imports sibling", "python3 src/main2.py", { "src/main2.py": "from a import add\nimport pkg\nprint(add(1, 2), pkg.VERSION)\n" }),
  run("shebang script by path", "chmod +x tool.py && ./tool.py x y", { "tool.py": "#!/usr/bin/env python3\nimport sys\nprint('tool', sys.argv[1:])\n" }),
  run("-m runs package main", "python3 -m app", { "app/__init__.py": "", "app/__main__.py": "print('app main', __name__)\n" }),
  run("py_compile", "python3 -m py_compile mylib.py && echo ok && python3 -m py_compile bad.py; echo $?", { "bad.py": "def f(:\n" }),
  run("-c with sys.argv", "python3 -c 'import sys; print(sys.argv)' one two"),
  run("-W error", "python3 -W error -c 'import warnings; warnings.warn(\"x\")'; echo $?"),
  run("-O strips asserts", "python3 -O -c 'assert False; print(\"no assert\")'"),
  run("pipe to head", "python3 -c 'for i in range(100000): print(i)' | head -3"),
  run("env vars", 'FOO=bar python3 -c \'import os; print(os.environ.get("FOO"), os.environ.get("NOPE", "-"), os.getenv("LANG"))\''),
  run("cwd relative open", "cd notes && python3 -c 'import os; print(open(\"one.txt\").read().split(), os.path.basename(os.getcwd()))'"),
  run("print end flush", 'python3 -c \'print("a", end=""); print("b", "c", sep="-")\''),
  // --- misc stdlib agents use ---
  py("shlex and subprocess-free", 'import shlex\nprint(shlex.split(\'a "b c" d\\\\ e\'), shlex.quote("it\'s"))\n'),
  py(
    "urllib.parse",
    "from urllib.parse import urlparse, parse_qs, urlencode, quote, urljoin\nu = urlparse('https://ex.com:8080/p/a?x=1&y=2&x=3#f')\nprint(u.scheme, u.hostname, u.port, u.path, parse_qs(u.query))\nprint(urlencode({'q': 'a b', 'n': 1}), quote('a/b c'), urljoin('https://a/b/c', '../d'))\n",
  ),
  py(
    "html and xml",
    "import html\nfrom xml.etree import ElementTree as ET\nprint(html.escape('<a href=\"x\">&</a>'), html.unescape('&lt;&amp;&#39;'))\nr = ET.fromstring('<r><i n=\"1\">a</i><i n=\"2\">b</i></r>')\nprint([(i.get('n'), i.text) for i in r.iter('i')])\n",
  ),
  py(
    "email and mime",
    "from email.message import EmailMessage\nm = EmailMessage()\nm['Subject'] = 'Hi'\nm['To'] = 'a@example.com'\nm.set_content('body')\nprint(m['Subject'], m.get_content_type(), m.get_content().strip())\n",
  ),
  py(
    "configparser and tomllib",
    "import configparser, tomllib\nc = configparser.ConfigParser()\nc.read_string('[db]\\nhost = x\\nport = 5\\n')\nprint(c['db']['host'], c.getint('db', 'port'))\nprint(tomllib.loads('a = 1\\n[b]\\nc = [1, 2]\\n'))\n",
  ),
  py("pprint", "from pprint import pprint\nimport json\npprint(json.load(open('data.json')), width=60)\n"),
  py(
    "enum and typing",
    "from enum import Enum, auto\nfrom typing import NamedTuple, Optional\nclass Color(Enum):\n    RED = auto()\n    GREEN = auto()\nclass P(NamedTuple):\n    x: int\n    y: Optional[int] = None\nprint(Color.RED, Color['GREEN'].value, list(Color), P(1))\n",
  ),
  py(
    "classes and dunder",
    "class V:\n    def __init__(self, x, y): self.x, self.y = x, y\n    def __add__(self, o): return V(self.x + o.x, self.y + o.y)\n    def __repr__(self): return f'V({self.x}, {self.y})'\n    def __eq__(self, o): return (self.x, self.y) == (o.x, o.y)\nprint(V(1, 2) + V(3, 4), V(1, 1) == V(1, 1))\n",
  ),
  py(
    "generators and comprehension",
    "def gen(n):\n    for i in range(n):\n        yield i * i\nprint(sum(gen(10)), [x for x in gen(6) if x % 2], next(iter(gen(3))))\nprint(list(zip('abc', range(3))), list(enumerate('xy', 1)), any([]), all([]))\n",
  ),
  py(
    "match statement",
    "def f(x):\n    match x:\n        case {'type': 'a', 'v': v}: return f'a {v}'\n        case [first, *rest]: return f'list {first} {len(rest)}'\n        case _: return 'other'\nprint(f({'type': 'a', 'v': 1}), f([1, 2, 3]), f(5))\n",
  ),
  py("walrus and f-string debug", "import re\nif (m := re.match(r'(\\w+)', 'hello world')):\n    x = m.group(1)\n    print(f'{x=}', f'{len(x)=}')\n"),
  py(
    "struct and array",
    "import struct, array\nb = struct.pack('<IhQ', 1, -2, 3)\nprint(b.hex(), struct.unpack('<IhQ', b), struct.calcsize('<IhQ'))\na = array.array('d', [1.5, 2.5]); print(a.tolist(), a.itemsize)\n",
  ),
  py("io StringIO BytesIO", "import io\ns = io.StringIO('a\\nb\\n'); print(s.readlines())\nb = io.BytesIO(); b.write(b'xyz'); print(b.getvalue())\n"),
  py("copy and deepcopy", "import copy\na = {'x': [1, 2]}\nb = copy.copy(a); c = copy.deepcopy(a)\na['x'].append(3)\nprint(b, c)\n"),
  py(
    "contextlib",
    "from contextlib import contextmanager, suppress, redirect_stdout\nimport io\n@contextmanager\ndef tag(n):\n    print(f'<{n}>'); yield; print(f'</{n}>')\nwith tag('b'): print('x')\nwith suppress(KeyError): {}['a']\nbuf = io.StringIO()\nwith redirect_stdout(buf): print('hidden')\nprint(repr(buf.getvalue()))\n",
  ),
  py("pickle roundtrip", "import pickle\nd = {'a': [1, 2, (3, 4)], 'b': {1.5, 2.5}}\np = pickle.dumps(d)\nprint(pickle.loads(p) == d, type(p))\n"),
  py(
    "operator and sorted stability",
    "import operator\nrecs = [{'n': 'a', 'v': 2}, {'n': 'b', 'v': 1}, {'n': 'c', 'v': 2}]\nprint([r['n'] for r in sorted(recs, key=operator.itemgetter('v'))])\n",
  ),
  py("secrets-free token length", "import secrets\nprint(len(secrets.token_hex(16)), len(secrets.token_urlsafe(8)) > 0)\n"),
  py("timeit module quiet", "import timeit\nt = timeit.timeit('sum(range(100))', number=100)\nprint(t >= 0)\n"),
  py(
    "asyncio gather",
    "import asyncio\nasync def work(n):\n    await asyncio.sleep(0)\n    return n * 2\nasync def main():\n    print(await asyncio.gather(*(work(i) for i in range(5))))\nasyncio.run(main())\n",
  ),
  py("recursion limit", "import sys\ndef f(n): return f(n + 1)\ntry:\n    f(0)\nexcept RecursionError as e:\n    print('RecursionError:', e)\n"),
  py("deep recursion traceback", "def f(n): return f(n + 1)\nf(0)\n"),
  py("memory error handled", "try:\n    x = bytearray(1 << 40)\nexcept MemoryError:\n    print('MemoryError')\n"),
  py("string encoding errors", "b = 'héllo'.encode('utf-8')\nprint(b, b.decode('latin-1'))\nb'\\xff'.decode('utf-8')\n"),
  py(
    "open with encoding",
    "open('l1.txt', 'w', encoding='latin-1').write('café')\nprint(open('l1.txt', 'rb').read(), open('l1.txt', encoding='latin-1').read())\nprint(open('l1.txt').read())\n",
  ),
  py("zip strict and map", "print(list(map(str.upper, ['a', 'b'])), list(filter(None, [0, 1, '', 'x'])))\nlist(zip([1, 2], [1], strict=True))\n"),
  py("print object reprs", "print(repr('a\\tb'), repr(b'\\x00'), 1.0, 1e-7, 10**20 * 1.0, -0.0, complex(1, -2), None, ...)\n"),
  py(
    "sorted dict items table",
    "import json\nd = json.load(open('data.json'))\nfor u in d['users']:\n    print(f\"{u['id']:>3} {u['name']:<6} {','.join(u['tags']) or '-'}\")\n",
  ),
  py(
    "word frequency of files",
    "import re, collections\nc = collections.Counter()\nfor p in ['notes/one.txt', 'notes/two.md', 'app.log']:\n    c.update(re.findall(r'[a-z]+', open(p).read().lower()))\nprint(c.most_common(3))\n",
  ),
  py(
    "os.path functions",
    "import os.path as p\nprint(p.join('a', 'b', 'c.txt'), p.splitext('x.tar.gz'), p.basename('/a/b/'), p.dirname('/a/b/c'), p.normpath('a/./b/../c'), p.isabs('/x'))\n",
  ),
  py(
    "os.environ iteration filtered",
    "import os\nprint(sorted(k for k in os.environ if k in ('HOME', 'LANG', 'PATH', 'FOO')))\nprint(os.environ['PATH'].split(':')[-2:])\n",
  ),
  // --- subprocess, os.system, os.popen (through the session's shell; Debian runs the real commands) ---
  py(
    "subprocess.run capture text",
    "import subprocess\nr = subprocess.run(['echo', 'hello', 'world'], capture_output=True, text=True)\nprint(repr(r.stdout), repr(r.stderr), r.returncode, r.args)\n",
  ),
  py(
    "subprocess.run capture bytes",
    "import subprocess\nr = subprocess.run(['printf', '%s-%s\\n', 'a', 'b'], capture_output=True)\nprint(r.stdout, r.stderr, type(r.stdout).__name__)\n",
  ),
  py("subprocess.run repr", "import subprocess\nprint(subprocess.run(['echo', 'x'], stdout=subprocess.PIPE))\n"),
  py(
    "subprocess.run exit code",
    "import subprocess\nr = subprocess.run('exit 3', shell=True)\nprint(r.returncode)\nr = subprocess.run(['false'])\nprint(r.returncode)\n",
  ),
  py(
    "subprocess.run check raises",
    "import subprocess\ntry:\n    subprocess.run(['cat', 'missing.txt'], check=True, capture_output=True, text=True)\nexcept subprocess.CalledProcessError as e:\n    print('CalledProcessError', e.returncode, e.cmd, repr(e.stdout))\n    print(str(e))\n",
  ),
  py("subprocess.run check uncaught", "import subprocess\nsubprocess.run('exit 4', shell=True, check=True)\n"),
  py(
    "subprocess check_returncode",
    "import subprocess\nr = subprocess.run(['true'])\nprint(r.check_returncode(), r.returncode)\ntry:\n    subprocess.run('exit 2', shell=True).check_returncode()\nexcept subprocess.CalledProcessError as e:\n    print(e)\n",
  ),
  py(
    "subprocess.run input text",
    "import subprocess\nr = subprocess.run(['sort'], input='pear\\napple\\nfig\\n', capture_output=True, text=True)\nprint(r.stdout, end='')\n",
  ),
  py("subprocess.run input bytes", "import subprocess\nr = subprocess.run(['wc', '-c'], input=b'12345', capture_output=True)\nprint(r.stdout.split())\n"),
  py(
    "subprocess stderr captured",
    "import subprocess\nr = subprocess.run('echo out; echo err >&2; exit 5', shell=True, capture_output=True, text=True)\nprint(repr(r.stdout), repr(r.stderr), r.returncode)\n",
  ),
  py(
    "subprocess stderr to stdout",
    "import subprocess\nr = subprocess.run('echo a; echo b >&2; echo c', shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)\nprint(repr(r.stdout), r.stderr)\n",
  ),
  py(
    "subprocess devnull",
    "import subprocess\nr = subprocess.run('echo gone; echo gone2 >&2', shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\nprint(r.stdout, r.stderr, r.returncode)\n",
  ),
  py(
    "subprocess output not captured goes first",
    "import subprocess\nprint('python line')\nsubprocess.run(['echo', 'child line'])\nsubprocess.run('echo child err >&2', shell=True)\nprint('python again')\n",
  ),
  py(
    "subprocess check_output",
    "import subprocess\nprint(subprocess.check_output(['cat', 'notes/one.txt']))\nprint(subprocess.check_output('cut -d, -f2 data.csv | sort | uniq', shell=True, text=True), end='')\n",
  ),
  py(
    "subprocess check_output fails",
    "import subprocess\ntry:\n    subprocess.check_output(['grep', 'nomatch', 'app.log'])\nexcept subprocess.CalledProcessError as e:\n    print(e.returncode, e.output)\n",
  ),
  py(
    "subprocess call and check_call",
    "import subprocess\nprint(subprocess.call(['test', '-f', 'data.csv']), subprocess.call(['test', '-d', 'data.csv']))\ntry:\n    subprocess.check_call(['test', '-d', 'data.csv'])\nexcept subprocess.CalledProcessError as e:\n    print(e)\n",
  ),
  py("subprocess getoutput", "import subprocess\nprint(repr(subprocess.getoutput('grep -c ERROR app.log')))\nprint(subprocess.getstatusoutput('echo hi; exit 7'))\n"),
  py(
    "subprocess cwd",
    "import subprocess\nr = subprocess.run(['ls'], cwd='notes', capture_output=True, text=True)\nprint(r.stdout, end='')\nprint(subprocess.run('pwd', shell=True, cwd='src/pkg', capture_output=True, text=True).stdout, end='')\n",
  ),
  py(
    "subprocess missing cwd",
    "import subprocess\ntry:\n    subprocess.run(['ls'], cwd='nodir')\nexcept FileNotFoundError as e:\n    print(type(e).__name__, e.filename)\n",
  ),
  py(
    "subprocess env replaces",
    "import subprocess, os\nos.environ['ONLY_PARENT'] = 'p'\nenv = {'PATH': os.environ['PATH'], 'GREETING': 'hola'}\nr = subprocess.run('echo $GREETING ${ONLY_PARENT:-absent} ${LANG:-nolang}', shell=True, env=env, capture_output=True, text=True)\nprint(r.stdout, end='')\n",
  ),
  py(
    "subprocess env inherits os.environ",
    "import subprocess, os\nos.environ['MY_VAR'] = 'from python'\nprint(subprocess.run(['printenv', 'MY_VAR'], capture_output=True, text=True).stdout, end='')\n",
  ),
  py(
    "subprocess argv quoted safely",
    "import subprocess\nr = subprocess.run(['printf', '[%s]\\n', 'a b', '$HOME', \"it's\", '*', '; rm -rf x', ''], capture_output=True, text=True)\nprint(r.stdout, end='')\n",
  ),
  py(
    "subprocess string without shell",
    "import subprocess\ntry:\n    subprocess.run('echo hi')\nexcept FileNotFoundError as e:\n    print(type(e).__name__, repr(e.filename))\n",
  ),
  py(
    "subprocess command not found",
    "import subprocess\ntry:\n    subprocess.run(['no-such-program-x', '-v'])\nexcept FileNotFoundError as e:\n    print(type(e).__name__, e.filename)\nr = subprocess.run('no-such-program-x', shell=True, capture_output=True)\nprint(r.returncode)\n",
  ),
  py(
    "subprocess Popen communicate",
    "import subprocess\np = subprocess.Popen(['tr', 'a-z', 'A-Z'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)\nout, err = p.communicate('shout this\\n')\nprint(repr(out), err, p.returncode, isinstance(p.pid, int))\n",
  ),
  py(
    "subprocess Popen stdout iterate",
    "import subprocess\nwith subprocess.Popen(['sort', '-r', 'notes/one.txt'], stdout=subprocess.PIPE, text=True) as p:\n    for line in p.stdout:\n        print('>', line.rstrip())\nprint(p.returncode)\n",
  ),
  py("subprocess Popen wait poll", "import subprocess\np = subprocess.Popen('exit 9', shell=True)\nprint(p.wait(), p.poll(), p.returncode)\n"),
  py(
    "subprocess Popen stdin write close",
    "import subprocess\np = subprocess.Popen(['wc', '-l'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)\np.stdin.write(b'1\\n2\\n3\\n')\np.stdin.close()\nprint(p.stdout.read().strip(), p.wait())\n",
  ),
  py(
    "subprocess stdout to file",
    "import subprocess\nwith open('listing.txt', 'w') as f:\n    subprocess.run(['echo', 'into file'], stdout=f)\nprint(open('listing.txt').read(), end='')\n",
  ),
  py(
    "subprocess stdin from file",
    "import subprocess\nwith open('data.csv') as f:\n    r = subprocess.run(['head', '-n', '2'], stdin=f, capture_output=True, text=True)\nprint(r.stdout, end='')\n",
  ),
  py(
    "subprocess sees python's files",
    "import subprocess\nwith open('made.txt', 'w') as f:\n    f.write('written by python\\n')\nprint(subprocess.run(['cat', 'made.txt'], capture_output=True, text=True).stdout, end='')\nsubprocess.run('echo written by shell > shell.txt', shell=True)\nprint(open('shell.txt').read(), end='')\n",
  ),
  py(
    "subprocess sees flushed writes of an open file",
    "import subprocess\nf = open('log.txt', 'w')\nf.write('line one\\n')\nf.flush()\nprint(subprocess.run(['wc', '-l', 'log.txt'], capture_output=True, text=True).stdout, end='')\nf.write('line two\\n')\nf.close()\nprint(subprocess.run(['cat', 'log.txt'], capture_output=True, text=True).stdout, end='')\n",
  ),
  py(
    "subprocess shell pipeline and glob",
    "import subprocess\nprint(subprocess.run('ls notes/*.txt src/*.py | sort', shell=True, capture_output=True, text=True).stdout, end='')\nprint(subprocess.run('grep ERROR app.log | wc -l', shell=True, capture_output=True, text=True).stdout.strip())\n",
  ),
  py(
    "subprocess shell list args",
    "import subprocess\nr = subprocess.run(['echo \"$1-$2\"', 'zero', 'one', 'two'], shell=True, capture_output=True, text=True)\nprint(repr(r.stdout))\n",
  ),
  py(
    "subprocess encoding and errors",
    "import subprocess\nr = subprocess.run(['printf', 'caf\\xc3\\xa9\\n'], capture_output=True, encoding='utf-8')\nprint(repr(r.stdout))\nr = subprocess.run(['printf', '\\\\377x'], capture_output=True, text=True, errors='replace')\nprint(repr(r.stdout))\n",
  ),
  py(
    "subprocess universal newlines",
    "import subprocess\nr = subprocess.run(['printf', 'a\\r\\nb\\rc\\n'], capture_output=True, universal_newlines=True)\nprint(repr(r.stdout))\n",
  ),
  py(
    "os.system output and status",
    "import os\nprint('before', flush=True)\nst = os.system('echo from system; exit 3')\nprint('status', st, os.waitstatus_to_exitcode(st) if hasattr(os, 'waitstatus_to_exitcode') else st >> 8)\nprint(os.system('true'))\n",
  ),
  py("os.system stderr", "import os\nos.system('echo to stderr >&2')\nprint('done')\n"),
  py("os.popen read", "import os\nwith os.popen('sort -t, -k3 -n data.csv | head -3') as p:\n    for line in p:\n        print(line.split(',')[0])\n"),
  py("os.popen close status", "import os\np = os.popen('echo x; exit 2')\nprint(repr(p.read()), p.close())\np = os.popen('true')\nprint(p.close())\n"),
  py("os.popen write", "import os\np = os.popen('tr a-z A-Z', 'w')\np.write('loud\\n')\nprint(p.close())\n"),
  py(
    "subprocess run many",
    "import subprocess\ntotal = 0\nfor f in ['notes/one.txt', 'notes/two.md', 'data.csv', 'app.log']:\n    total += int(subprocess.check_output(['wc', '-l', f]).split()[0])\nprint(total)\n",
  ),
  py(
    "subprocess seq large output",
    "import subprocess\nout = subprocess.run(['seq', '1', '20000'], capture_output=True, text=True).stdout\nlines = out.splitlines()\nprint(len(lines), lines[0], lines[-1], len(out))\n",
  ),
  // timeout= and Popen's signals: deterministic where the command cannot finish in time.
  py(
    "subprocess run timeout",
    "import subprocess\ntry:\n    subprocess.run('echo started; sleep 5; echo late', shell=True, timeout=0.5, capture_output=True)\nexcept subprocess.TimeoutExpired as e:\n    print(type(e).__name__, e, repr(e.stdout), repr(e.stderr), e.timeout)\ntry:\n    subprocess.check_output(['sleep', '5'], timeout=0.3, text=True)\nexcept subprocess.TimeoutExpired as e:\n    print(e, repr(e.output))\nprint(subprocess.run(['echo', 'in time'], timeout=20, capture_output=True).stdout)\n",
  ),
  py(
    "subprocess Popen kill terminate before communicate",
    "import subprocess\np = subprocess.Popen(['sleep', '5'], stdout=subprocess.PIPE)\np.kill()\nprint(p.wait(), p.poll(), p.returncode, p.communicate())\nq = subprocess.Popen('sleep 5', shell=True)\nq.terminate()\nprint(q.wait(), q.returncode)\n",
  ),
  py(
    "subprocess Popen wait timeout then kill",
    "import subprocess\np = subprocess.Popen(['sleep', '5'])\ntry:\n    p.wait(timeout=0.3)\nexcept subprocess.TimeoutExpired as e:\n    print(e, e.timeout)\np.kill()\nprint(p.wait())\ntry:\n    subprocess.call('sleep 5', shell=True, timeout=0.3)\nexcept subprocess.TimeoutExpired as e:\n    print(e)\np = subprocess.Popen('exit 4', shell=True)\nwhile p.poll() is None:\n    pass\np.kill()\nprint(p.returncode, p.wait())\n",
  ),
  py("input from stdin", "name = input('Name? ')\nprint('hi', name)\n", { stdin: "ada\n" }),
  py("input EOF", "input()\n", { stdin: "" }),
  py("stdin binary", "import sys\nb = sys.stdin.buffer.read()\nprint(len(b), b[:3])\n", { stdin: "\u00e9abc" }),
];

/** A shell command line run in the case's directory (usually several programs). */
function run(name, cmd, files = {}) {
  return { name, files: { ...COMMON_FILES, ...files }, run: cmd };
}

/** sqlite3 shell sessions: SQL on stdin (or arguments), compared with Debian's sqlite3. */
const sq = (name, sql, args = "") => ({ name, files: { ...COMMON_FILES }, run: `sqlite3${args ? " " + args : ""}`, stdin: sql });
const sqr = (name, cmd, files = {}, stdin) => ({ name, files: { ...COMMON_FILES, ...files }, run: cmd, stdin });
const T = "create table t(id integer primary key, name text, n real);\ninsert into t(name, n) values ('a', 1.5), ('b', 2), ('c', null);\n";

export const SQLITE_CASES = [
  sq("select literal", "select 1, 'a', 2.5, null;\n"),
  sq("create insert select", T + "select * from t;\n"),
  sq("headers on", T + ".headers on\nselect * from t;\n"),
  sq("mode csv", T + ".mode csv\n.headers on\nselect * from t;\n"),
  sq("mode json", T + ".mode json\nselect * from t;\n"),
  sq("mode box", T + ".mode box\nselect * from t;\n"),
  sq("mode markdown", T + ".mode markdown\nselect * from t;\n"),
  sq("mode line", T + ".mode line\nselect * from t;\n"),
  sq("mode column", T + ".mode column\n.headers on\nselect * from t;\n"),
  sq("mode table", T + ".mode table\nselect name, n from t;\n"),
  sq("mode tabs", T + ".mode tabs\nselect * from t;\n"),
  sq("mode insert", T + ".mode insert t2\nselect * from t;\n"),
  sq("mode list separator", T + ".separator ' | '\nselect * from t;\n"),
  sq("nullvalue", T + ".nullvalue NULL\nselect * from t;\n"),
  sq("tables and schema", T + "create table u(x);\ncreate index ti on t(name);\n.tables\n.schema\n"),
  sq("schema of one table", T + ".schema t\n"),
  sq("dump", T + ".dump\n"),
  sq("indexes", T + "create index ti on t(name);\n.indexes t\n"),
  sq("syntax error", "selec 1;\n"),
  sq("missing table error", "select * from nope;\n"),
  sq("error then continue", "select * from nope;\nselect 2;\n"),
  sq("bail on", ".bail on\nselect * from nope;\nselect 2;\n"),
  sq("aggregates group by", T + "select count(*), sum(n), avg(n), min(name), max(name), total(n) from t;\nselect name is null, count(*) from t group by 1;\n"),
  sq(
    "json functions",
    "select json_object('a', 1, 'b', json_array(1, 2));\nselect json_extract('{\"x\":{\"y\":[5,6]}}', '$.x.y[1]');\nselect value from json_each('[1,2,3]');\n",
  ),
  sq("json group", T + "select json_group_array(name) from t;\n"),
  sq(
    "date functions",
    "select date('2024-02-28', '+1 day'), datetime('2024-01-01 10:00', '+90 minutes'), strftime('%Y-%W', '2024-03-10'), julianday('2024-01-02') - julianday('2024-01-01');\n",
  ),
  sq(
    "string functions",
    "select upper('abc'), length('héllo'), substr('abcdef', 2, 3), replace('a-b-c', '-', '+'), instr('hello', 'l'), trim('  x  '), printf('%05.2f|%-4s|', 3.14159, 'ab'), hex('A');\n",
  ),
  sq("math functions", "select abs(-3), round(2.567, 2), 7 / 2, 7 / 2.0, 7 % 3, sqrt(2), pow(2, 8), ln(1), floor(2.7), ceil(2.1);\n"),
  sq("cte recursive", "with recursive c(x) as (select 1 union all select x + 1 from c where x < 5) select group_concat(x, ',') from c;\n"),
  sq("window functions", T + "select name, n, row_number() over (order by n desc nulls last), sum(n) over () from t order by id;\n"),
  sq(
    "joins",
    T +
      "create table g(tid, tag);\ninsert into g values (1, 'x'), (1, 'y'), (2, 'z');\nselect t.name, group_concat(tag, '+') from t left join g on g.tid = t.id group by t.id order by t.id;\n",
  ),
  sq(
    "upsert",
    "create table kv(k primary key, v);\ninsert into kv values ('a', 1);\ninsert into kv values ('a', 2) on conflict(k) do update set v = v + excluded.v;\nselect * from kv;\n",
  ),
  sq(
    "constraint error",
    "create table u(x unique not null);\ninsert into u values (1);\ninsert into u values (1);\ninsert into u values (null);\nselect count(*) from u;\n",
  ),
  sq("transactions", "create table a(x);\nbegin;\ninsert into a values (1);\nrollback;\nbegin;\ninsert into a values (2);\ncommit;\nselect * from a;\n"),
  sq("typeof and casts", "select typeof(1), typeof(1.0), typeof('1'), typeof(x'01'), typeof(null), cast('12abc' as integer), cast(3.9 as integer), 1 = '1';\n"),
  sq(
    "views and triggers",
    T +
      "create view v as select name from t where n > 1;\ncreate table log(msg);\ncreate trigger tr after insert on t begin insert into log values ('new ' || new.name); end;\ninsert into t(name, n) values ('d', 9);\nselect * from v;\nselect * from log;\n",
  ),
  sq(
    "fts5",
    "create virtual table d using fts5(body);\ninsert into d values ('the quick fox'), ('lazy dog'), ('quick dog');\nselect body from d where d match 'quick' order by rank;\n",
  ),
  sq("echo on", ".echo on\nselect 1;\n"),
  sq("print and show", ".print hello there\n.mode csv\n.show\n"),
  sq("changes on", T + ".changes on\nupdate t set n = 0 where n is null;\ndelete from t where id = 1;\n"),
  sq("quit stops", "select 1;\n.quit\nselect 2;\n"),
  sq("unknown dot command", ".frobnicate\nselect 1;\n"),
  sq("multiple statements one line", "select 1; select 2; select 'a' || 'b';\n"),
  sq("blob and hex", "select x'48656c6c6f', hex(x'00ff'), zeroblob(3) = x'000000', length(randomblob(8));\n"),
  sq(
    "order by collate",
    "create table w(s);\ninsert into w values ('b'), ('A'), ('a'), ('B');\nselect s from w order by s;\nselect s from w order by s collate nocase, s;\n",
  ),
  sq("pragma table_info", T + "pragma table_info(t);\n"),
  sq("generate series-free cross join", "select a.x * b.x from (select 1 x union select 2 union select 3) a, (select 10 x union select 20) b order by 1;\n"),
  sq("limit offset", T + "select name from t order by name desc limit 2 offset 1;\n"),
  sq(
    "case and coalesce",
    T + "select name, case when n > 1.5 then 'big' when n is null then 'none' else 'small' end, coalesce(n, -1), ifnull(n, 0), nullif(name, 'a') from t;\n",
  ),
  sqr("sql as argument", "sqlite3 :memory: 'select 40 + 2'"),
  sqr("csv flag argument", "sqlite3 -csv -header :memory: \"select 1 as a, 'x,y' as b\""),
  sqr("json flag argument", "sqlite3 -json :memory: \"select 1 as a, 'x' as b\""),
  sqr("box flag argument", "sqlite3 -box :memory: \"select 1 as a, 'x' as b\""),
  sqr("file db across runs", "sqlite3 app.db 'create table t(x); insert into t values (1),(2);' && sqlite3 app.db 'select sum(x) from t' && ls app.db"),
  sqr("import csv", "sqlite3 db.sqlite '.import --csv data.csv emp' 'select dept, count(*) from emp group by dept order by dept' && sqlite3 db.sqlite '.schema emp'"),
  sqr("import with mode csv", "sqlite3 :memory: <<'EOF'\n.mode csv\n.import data.csv emp\n.mode list\nselect name from emp where salary > 90 order by name;\nEOF"),
  sqr("read a script", "sqlite3 :memory: '.read setup.sql' 'select * from t'", { "setup.sql": "create table t(a);\ninsert into t values ('from script');\n" }),
  sqr("output to file", "sqlite3 :memory: <<'EOF'\n.output out.txt\nselect 'written';\n.output stdout\nselect 'shown';\nEOF\ncat out.txt"),
  sqr("dump and restore", "sqlite3 a.db 'create table t(x, y); insert into t values (1, \"q\");' && sqlite3 a.db .dump | sqlite3 b.db && sqlite3 b.db 'select * from t'"),
  sqr("version flag", "sqlite3 -version | cut -d' ' -f1"),
  sqr("missing db dir", "sqlite3 nodir/x.db 'select 1'; echo $?"),
  sqr(
    "python writes, sqlite3 reads",
    "python3 -c \"import sqlite3; c = sqlite3.connect('s.db'); c.execute('create table t(x)'); c.execute('insert into t values (42)'); c.commit()\" && sqlite3 s.db 'select x from t'",
  ),
  sqr(
    "sqlite3 writes, python reads",
    "sqlite3 s2.db \"create table t(n text); insert into t values ('hi');\" && python3 -c \"import sqlite3; print(sqlite3.connect('s2.db').execute('select * from t').fetchall())\"",
  ),
  sqr("cmd option", "sqlite3 -cmd '.mode csv' :memory: \"select 1, 'a'\""),
  sqr("line flag", 'sqlite3 -line :memory: "select 1 as one, 2 as two"'),
  sqr("separator flag", "sqlite3 -separator ';' :memory: \"select 1, 2, 3\""),
  sqr("bail flag with error", "sqlite3 -bail :memory: 'select * from nope' 'select 1'; echo $?"),
];
