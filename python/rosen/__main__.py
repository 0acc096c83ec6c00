"""``python -m rosen ...`` runs the ``rosen`` command line (e.g. ``python -m rosen engine``)."""
import sys

from .cli import main

sys.exit(main())
