"""Drive the installed nimbook kernel with jupyter_client as a
Python-notebook user would (issue 30 item 5, issues 27 and 28): the
registry's families as built-ins, their completion and inspection,
%time on a longer cell, dir(), to_csv into the notebook's folder, a styled
plot and a game graph's legend; print JSON.

usage: /usr/bin/python3 kernelhabits.py FOLDER   (the kernel's working folder)
"""
import json
import sys

from jupyter_client.manager import start_new_kernel


def run(kc, code, timeout=120):
    """Execute code; return (status, stdout, text/plain result, bundles)."""
    out, result, bundles = [], [], []

    def hook(m):
        if m["msg_type"] == "stream":
            out.append(m["content"]["text"])
        elif m["msg_type"] in ("execute_result", "display_data"):
            bundles.append(m["content"]["data"])
            if m["msg_type"] == "execute_result":
                result.append(m["content"]["data"].get("text/plain", ""))

    reply = kc.execute_interactive(code, timeout=timeout, output_hook=hook)
    c = reply["content"]
    status = c["status"]
    if status == "error":
        status += ": " + c.get("ename", "") + ": " + c.get("evalue", "")
    return status, "".join(out), "".join(result), bundles


def reply_to(kc, msg_id, timeout=60):
    while True:
        m = kc.get_shell_msg(timeout=timeout)
        if m["parent_header"].get("msg_id") == msg_id:
            return m


def main():
    km, kc = start_new_kernel(kernel_name="nimbook", startup_timeout=120, cwd=sys.argv[1])
    res = {}
    try:
        for key, code in [
            ("node_kayles", 'node_kayles(graph={"grid": [2, 6]}).value()'),
            ("cram", "[cram(board=[1, n]).value() for n in range(1, 8)]"),
            ("chomp", "chomp(rows=[2, 1]).outcome()"),
            ("time", "%time x = sum(range(1000))\ny = x + 1\ny"),
            ("dir", "dir()[:2]"),
            ("to_csv", 'octal("0.07").values(5).to_csv("values.csv")'),
        ]:
            status, out, text, _ = run(kc, code)
            res[key] = {"status": status, "stdout": out, "result": text}

        status, _, text, bundles = run(kc, 'octal("0.77").plot(30, title="Kayles on a log axis", xlabel="heap", log="y", size=(6, 3))')
        res["plot"] = {"status": status, "result": text, "mime": sorted(bundles[-1]) if bundles else [],
                       "svg": bundles[-1].get("image/svg+xml", "") if bundles else ""}
        status, _, _, bundles = run(kc, "nim(1, 2, 3).graph()")
        res["graph"] = {"status": status, "svg": bundles[-1].get("image/svg+xml", "") if bundles else ""}

        msg_id = kc.complete("node_k", 6)
        res["complete_family"] = reply_to(kc, msg_id)["content"]["matches"]
        msg_id = kc.complete("cram(bo", 7)
        res["complete_param"] = reply_to(kc, msg_id)["content"]["matches"]
        msg_id = kc.inspect("chomp", 5)
        c = reply_to(kc, msg_id)["content"]
        res["inspect"] = c.get("data", {}).get("text/plain", "") if c.get("found") else ""
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    print(json.dumps(res))


main()
