#### set up a messy download folder
mkdir -p inbox && cd inbox && touch report-2023.pdf report-2024.pdf photo1.jpg photo2.JPG notes.txt todo.txt archive.tar.gz data.csv "My File.txt" && ls
#### count by extension
cd inbox && for f in *; do echo "${f##*.}"; done | tr 'A-Z' 'a-z' | sort | uniq -c
#### make folders per type and move files
cd inbox && set -e
mkdir -p docs images text other
for f in *.*; do
  [ -f "$f" ] || continue
  ext=$(echo "${f##*.}" | tr 'A-Z' 'a-z')
  case "$ext" in
    pdf) mv -- "$f" docs/ ;;
    jpg|png) mv -- "$f" images/ ;;
    txt|csv) mv -- "$f" text/ ;;
    *) mv -- "$f" other/ ;;
  esac
done
ls -R . | grep -v '^$'
#### find all txt files
find inbox -name '*.txt' | sort
#### rename with spaces replaced
cd inbox/text && for f in *\ *; do mv -- "$f" "${f// /_}"; done; ls
#### lowercase image extensions
cd inbox/images && for f in *.JPG; do [ -e "$f" ] && mv "$f" "${f%.JPG}.jpg"; done; ls
#### prefix reports with their year folder
cd inbox/docs && for f in report-*.pdf; do y=${f#report-}; y=${y%.pdf}; mkdir -p "$y"; mv "$f" "$y/"; done; find . -type f | sort
#### tree of the result
find inbox -type d | sort
#### count files per directory
for d in inbox/*/; do printf '%s %s\n' "$(find "$d" -type f | wc -l)" "${d%/}"; done
#### check an empty glob with nullglob
shopt -s nullglob; files=(inbox/*.zip); echo "zips: ${#files[@]}"
#### basename and dirname on each file
find inbox -type f -name '*.pdf' | sort | while read -r p; do echo "$(basename "$p") in $(dirname "$p")"; done
#### dry-run deletion list
find inbox -type f \( -name '*.gz' -o -name '*.tmp' \) -print | sed 's/^/would delete: /'
#### copy text files to a backup with cp
mkdir -p backup && cp inbox/text/*.txt backup/ && ls backup | wc -l
#### diff the directory listings
diff <(ls inbox/text) <(ls backup); echo "diff=$?"
#### remove the backup
rm -r backup && ls -d backup 2>/dev/null; echo "gone=$?"
