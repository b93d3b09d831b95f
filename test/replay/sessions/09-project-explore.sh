#### create a small project
mkdir -p proj/src/util proj/tests proj/docs && cd proj
cat > src/main.py <<'PY'
import sys
from util.helpers import greet  # TODO: rename module

def main(argv):
    # FIXME: handle errors
    print(greet(argv[1] if len(argv) > 1 else "world"))

if __name__ == "__main__":
    main(sys.argv)
PY
cat > src/util/helpers.py <<'PY'
def greet(name):
    return f"hello {name}"  # TODO: i18n

def unused():
    pass
PY
printf 'def test_greet():\n    assert True\n' > tests/test_helpers.py
printf '# Project\n\nRun `python src/main.py`.\n' > docs/README.md
find . -type f | sort
#### find TODO and FIXME markers
cd proj && grep -rn -E 'TODO|FIXME' --include='*.py' . | sort
#### count lines of python
cd proj && find . -name '*.py' -print0 | xargs -0 wc -l | sort -n | tail -1
#### list function definitions
cd proj && grep -rhoE '^def [a-z_]+' src | sed 's/def //' | sort
#### files without tests
cd proj && for f in src/util/*.py; do b=$(basename "$f" .py); [ -f "tests/test_$b.py" ] && echo "tested: $b" || echo "untested: $b"; done
#### rename a function across files
cd proj && grep -rl 'greet' src tests | sort | xargs sed -i 's/\bgreet\b/welcome/g' && grep -rn welcome src | wc -l
#### word count of docs
cd proj && wc -w docs/README.md | awk '{print $1}'
#### directory sizes by file count
cd proj && find . -mindepth 1 -maxdepth 1 -type d | sort | while read -r d; do echo "$d $(find "$d" -type f | wc -l)"; done
#### grep with context
cd proj && grep -n -A1 'def main' src/main.py
#### rg search in project
cd proj && rg -n 'import' src | sort
#### newest-looking file by name order
cd proj && ls src | sort -r | head -1
#### tar up the project and list it
tar -czf proj.tgz proj && tar -tzf proj.tgz | sort | head -4
#### checksum stability
cd proj && sha256sum docs/README.md | cut -c1-16
#### xargs with -n and -I
printf 'a b c d e\n' | xargs -n 2 echo; printf 'x\ny\n' | xargs -I{} echo "item {}"
#### find -exec with a shell
find proj/tests -name '*.py' -exec grep -c assert {} \;
#### missing directory
ls proj/nothing 2>/dev/null; echo "rc=$?"
