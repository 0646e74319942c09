"""What every test shares."""

import os

# Rich sizes a console once, from COLUMNS, when it is made (the CLI's on its first import):
# every test sees the same wide console, whichever test happens to import the CLI first.
os.environ.setdefault("COLUMNS", "200")
