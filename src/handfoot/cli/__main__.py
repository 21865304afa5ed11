"""``python -m handfoot.cli``: the ``handfoot`` command line (as ``python -m handfoot``)."""

import sys

from handfoot.cli import main

sys.exit(main())
