"""Drive the installed "nimbook" kernelspec with jupyter_client.

usage: /usr/bin/python3 client.py interrupt|orphan|abort|comm|large|history

interrupt: run a blocking cell, interrupt it through the client (interrupt_mode
message), then another with SIGINT, answer an input
request, run the next cell, time trivial cells, shut down; print JSON.
orphan: start a kernel, print its pid, and exit without shutting it down.
abort: queue three cells, the first failing, as Run All does; print their
replies' statuses and outputs, then those of a cell sent afterwards.
comm: open a comm as ipywidgets does; print what the kernel published.
large: send a cell of 9 MiB and, before its reply, a small one; then complete
and inspect requests of 9 MiB; print the replies.
history: run cells, then ask for them back (tail, range, search).
"""
import json
import os
import signal
import sys
import time

from jupyter_client.manager import start_new_kernel


def run(kc, code, timeout=60):
    """Execute code, return (reply content, outputs)."""
    outs = []
    reply = kc.execute_interactive(code, timeout=timeout,
                                   output_hook=lambda m: outs.append(m["msg_type"]))
    return reply["content"], outs


def main():
    mode = sys.argv[1]
    km, kc = start_new_kernel(kernel_name="nimbook", startup_timeout=120)
    if mode == "orphan":
        print(json.dumps({"pid": km.provisioner.process.pid}), flush=True)
        os._exit(0)

    res = {"abort": abort, "comm": comm, "interrupt": interrupt, "large": large,
           "history": history}[mode](km, kc)
    kc.stop_channels()
    km.shutdown_kernel(now=False)
    res["alive_after_shutdown"] = km.is_alive()
    print(json.dumps(res))


def collect(kc, ids):
    """Replies' statuses and iopub message types of the requests ids."""
    status = {}
    while len(status) < len(ids):
        m = kc.get_shell_msg(timeout=60)
        status[m["parent_header"]["msg_id"]] = m["content"]["status"]
    types, idle = {i: [] for i in ids}, set()
    while len(idle) < len(ids):
        m = kc.get_iopub_msg(timeout=60)
        p = m["parent_header"].get("msg_id")
        if p not in types:
            continue
        t = m["msg_type"]
        if t == "status":
            t = m["content"]["execution_state"]
            if t == "idle":
                idle.add(p)
        types[p].append(t)
    return [status[i] for i in ids], [types[i] for i in ids]


def abort(km, kc):
    ids = [kc.execute(code) for code in ("sleep 1\nfail boom", "print queued", "1+1")]
    status, outputs = collect(kc, ids)
    after_status, after_outputs = collect(kc, [kc.execute("20+22")])
    return {"status": status, "outputs": outputs,
            "after_status": after_status[0], "after_outputs": after_outputs[0]}


def comm(km, kc):
    msg = kc.session.msg("comm_open", {"comm_id": "c-1", "target_name": "jupyter.widget",
                                       "data": {}, "metadata": {}})
    kc.shell_channel.send(msg)
    out = []
    while True:
        m = kc.get_iopub_msg(timeout=60)
        if m["parent_header"].get("msg_id") != msg["header"]["msg_id"]:
            continue
        out.append({"type": m["msg_type"], "content": m["content"]})
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
    return {"iopub": out}


def reply_to(kc, msg_id, timeout=60):
    """The shell reply to msg_id (replies to others are dropped)."""
    while True:
        m = kc.get_shell_msg(timeout=timeout)
        if m["parent_header"].get("msg_id") == msg_id:
            return m


def large(km, kc):
    big = "print " + "x" * (9 << 20)
    ids = [kc.execute(big), kc.execute("1+1")]  # the second before the first's reply
    status, outputs = collect(kc, ids)
    res = {"status": status, "outputs": outputs}
    for name, msg_id in (("complete", kc.complete("y" * (9 << 20), 3)),
                         ("inspect", kc.inspect("y" * (9 << 20), 3))):
        r = reply_to(kc, msg_id)
        res[name] = {"type": r["msg_type"], "status": r["content"]["status"],
                     "ename": r["content"].get("ename"), "evalue": r["content"].get("evalue")}
    first = kc.execute(big)
    r = reply_to(kc, first)
    res["execute"] = {"status": r["content"]["status"], "ename": r["content"].get("ename"),
                      "evalue": r["content"].get("evalue")}
    res["after"], _ = run(kc, "20+22")
    return res


def history(km, kc):
    for code in ("1+1", "print hi", "fail boom", "40+2"):
        kc.execute_interactive(code, timeout=60, output_hook=lambda m: None)
    res = {}
    for name, kwargs in (("tail", {"hist_access_type": "tail", "n": 2}),
                         ("range", {"hist_access_type": "range", "session": 0, "start": 1, "stop": 3}),
                         ("search", {"hist_access_type": "search", "pattern": "*+*", "output": True})):
        msg_id = kc.history(**kwargs)
        r = reply_to(kc, msg_id)
        res[name] = r["content"]["history"]
    return res


def interrupt(km, kc):
    res = {}
    msg_id = kc.execute("block")
    # Wait until the cell runs.
    while True:
        m = kc.get_iopub_msg(timeout=60)
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_input":
            break
    t0 = time.monotonic()
    km.interrupt_kernel()
    while True:
        reply = kc.get_shell_msg(timeout=60)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    res["interrupt_seconds"] = time.monotonic() - t0
    res["interrupted_status"] = reply["content"]["status"]
    res["interrupted_ename"] = reply["content"].get("ename")

    # SIGINT (what interrupt_mode "signal" or a terminal sends) interrupts the
    # cell and does not kill the kernel.
    msg_id = kc.execute("block")
    while True:
        m = kc.get_iopub_msg(timeout=60)
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_input":
            break
    os.kill(km.provisioner.process.pid, signal.SIGINT)
    while True:
        reply = kc.get_shell_msg(timeout=60)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    res["sigint_ename"] = reply["content"].get("ename")

    # Input through the stdin channel.
    msg_id = kc.execute("input name?", allow_stdin=True)
    req = kc.get_stdin_msg(timeout=60)
    res["input_prompt"] = req["content"]["prompt"]
    kc.input("bob")
    while True:
        m = kc.get_iopub_msg(timeout=60)
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "stream":
            res["input_echo"] = m["content"]["text"]
            break

    content, outs = run(kc, "20+22")
    res["next_status"] = content["status"]
    res["next_outputs"] = outs

    n = 50
    t0 = time.monotonic()
    for _ in range(n):
        run(kc, "1+1")
    res["roundtrip_ms"] = (time.monotonic() - t0) / n * 1000

    return res


main()
