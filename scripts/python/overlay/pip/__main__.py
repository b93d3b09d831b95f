import sys

from pip import main

sys.exit(main())
