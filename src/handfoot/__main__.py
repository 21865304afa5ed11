"""``python -m handfoot``: the ``handfoot`` command line."""

import sys

from handfoot.cli import main

sys.exit(main())
