"""Validate an executed notebook and print its outputs' MIME types as JSON.

usage: /usr/bin/python3 nbsummary.py NOTEBOOK
"""
import json
import sys

import nbformat

nb = nbformat.read(sys.argv[1], as_version=4)
nbformat.validate(nb)
cells = []
for cell in nb.cells:
    if cell.cell_type != "code":
        continue
    outs = []
    for o in cell.outputs:
        d = {"type": o.output_type}
        if o.output_type in ("execute_result", "display_data"):
            d["mime"] = sorted(o.data.keys())
        elif o.output_type == "error":
            d["ename"], d["evalue"] = o.ename, o.evalue
        outs.append(d)
    cells.append({"source": cell.source, "outputs": outs})
print(json.dumps({"kernel": nb.metadata.get("kernelspec", {}).get("name"),
                  "language": nb.metadata.get("language_info", {}).get("name"),
                  "cells": cells}))
