"""Drive the installed nimbook kernel with jupyter_client through the rough
edges of issues 21 and 22; print JSON.

usage: /usr/bin/python3 kernelrough.py

deep: show a list nested 400 000 deep, then interrupt a loop of str() of it
with an interrupt_request on the control channel: how long the reply and
the cell's end take (on the clock, and in the kernel's processor time). large: a cell of 9 MiB and the cell sent after it.
is_complete, magics (%time, %who, %limits) and history as a console uses
them.
"""
import json
import os
import time

from jupyter_client.manager import start_new_kernel


def cpu_seconds(pid):
    """Processor time process pid has used so far, in seconds, or None.

    Unlike the clock's time, it does not grow while the machine runs other
    work: the processor time a kernel spends after an interrupt is the work
    it did after it, however loaded the machine.
    """
    try:
        with open("/proc/%d/stat" % pid) as f:
            s = f.read()
    except OSError:
        return None
    fields = s[s.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_since(pid, before):
    after = cpu_seconds(pid)
    if before is None or after is None:
        return None
    return after - before


def run(kc, code, timeout=60):
    """Execute code; return (reply content, stdout text, text/plain result)."""
    out, result = [], []

    def hook(m):
        if m["msg_type"] == "stream":
            out.append(m["content"]["text"])
        elif m["msg_type"] == "execute_result":
            result.append(m["content"]["data"].get("text/plain", ""))

    reply = kc.execute_interactive(code, timeout=timeout, output_hook=hook)
    return reply["content"], "".join(out), "".join(result)


def reply_to(kc, msg_id, timeout=60):
    while True:
        m = kc.get_shell_msg(timeout=timeout)
        if m["parent_header"].get("msg_id") == msg_id:
            return m


def main():
    km, kc = start_new_kernel(kernel_name="nimbook", startup_timeout=120)
    res = {}
    try:
        # A list nested 400 000 deep: shown at once, 100 levels deep.
        pid = km.provisioner.pid
        run(kc, "x = []\nfor i in range(400000):\n    x = [x]")
        t0 = time.monotonic()
        c0 = cpu_seconds(pid)
        content, _, text = run(kc, "x")
        res["deep_show_seconds"] = time.monotonic() - t0
        res["deep_show_cpu"] = cpu_since(pid, c0)
        res["deep_status"] = content["status"]
        res["deep_text"] = text

        # str() of it in a loop: an interrupt_request is answered at once,
        # and the cell stops.
        msg_id = kc.execute("for i in range(100000):\n    s = str(x)")
        while True:
            m = kc.get_iopub_msg(timeout=60)
            if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_input":
                break
        time.sleep(1.0)
        t0 = time.monotonic()
        c0 = cpu_seconds(pid)
        req = kc.session.msg("interrupt_request", {})
        kc.control_channel.send(req)
        while True:
            m = kc.get_control_msg(timeout=60)
            if m["parent_header"].get("msg_id") == req["header"]["msg_id"]:
                break
        res["interrupt_reply_seconds"] = time.monotonic() - t0
        reply = reply_to(kc, msg_id)
        res["interrupt_stop_seconds"] = time.monotonic() - t0
        res["interrupt_stop_cpu"] = cpu_since(pid, c0)
        res["interrupted_ename"] = reply["content"].get("ename", "")

        # A cell of 9 MiB: an error that names the limit; the next cell runs.
        content, _, _ = run(kc, "s = '" + "y" * (9 << 20) + "'")
        res["large_status"] = content["status"]
        res["large_ename"] = content.get("ename", "")
        res["large_evalue"] = content.get("evalue", "")
        content, _, text = run(kc, "1+1")
        res["after_large"] = text

        # is_complete as jupyter console asks it.
        res["is_complete"] = {}
        for code in ("def f(n):\n    return n + 1\n    ", "def f(n):\n    return n + 1",
                     "%time nim_mul(2, 3)", "%%time\nfor i in range(3):\n    y = i"):
            msg_id = kc.is_complete(code)
            res["is_complete"][code] = reply_to(kc, msg_id)["content"]["status"]

        # Magics.
        _, out, text = run(kc, "%time nim_mul(2, 3)")
        res["time_out"], res["time_result"] = out, text
        _, out, _ = run(kc, "%%time\nz = 0\nfor i in range(10):\n    z += i\nprint(z)")
        res["cell_time_out"] = out
        run(kc, "a = 1\nb = [2]")
        _, res["who_out"], _ = run(kc, "%who")
        _, res["who_int_out"], _ = run(kc, "%who int")
        _, res["limits_out"], _ = run(kc, "%limits")

        # History, as jupyter console reads it at start.
        msg_id = kc.history(hist_access_type="tail", n=3)
        res["history_tail"] = reply_to(kc, msg_id)["content"]["history"]
        msg_id = kc.history(hist_access_type="search", pattern="%who*", output=False)
        res["history_search"] = reply_to(kc, msg_id)["content"]["history"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    res["alive_after_shutdown"] = km.is_alive()
    print(json.dumps(res))


main()
