"""`python -m referee.cli ...`: the `referee` command."""
import sys

from . import command

sys.exit(command())
