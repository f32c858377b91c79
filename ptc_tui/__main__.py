"""`python -m ptc_tui`: the same as the `ptc-tui` command."""

import sys

from ptc_tui.cli import main

sys.exit(main())
