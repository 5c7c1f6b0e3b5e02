"""The parallel page build behind `generator/site/mkdocs_parallel.py` (the MkDocs hook events,
the only door in):

- `versions`: the MkDocs and Material releases it is verified with (an exact allow-list);
- `adapter`: every MkDocs and Material internal it touches, and the only module that
  imports mkdocs or material;
- `build`: the worker processes, their results, and the switch that turns it all off.
"""
