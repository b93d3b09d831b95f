#!/bin/sh
# Prints a Markdown summary of the files under the current directory.
echo "# Workspace report"
echo
echo "## Files per extension"
find . -type f ! -path './.skills/*' | sed -n 's/.*\.\([A-Za-z0-9]*\)$/\1/p' | sort | uniq -c | sort -rn
echo
echo "## Largest files"
find . -type f ! -path './.skills/*' -exec wc -c {} + | grep -v ' total$' | sort -rn | head -10
