"""`python -m referee.cli ...`: the `referee` command."""
import sys

from . import main

sys.exit(main())
