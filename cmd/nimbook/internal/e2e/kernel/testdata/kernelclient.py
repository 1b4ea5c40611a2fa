"""Drive the installed nimbook kernel with jupyter_client; print JSON.

usage: /usr/bin/python3 kernelclient.py

Runs `while True: pass`, interrupts it after about a second, checks that the
reply comes back (status error) and how fast (on the clock, and in the
kernel's processor time), runs 1+1, then times N small
cells (nim_mul(2, 3)) through execute_interactive.
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


def result_of(kc, code, timeout=60):
    """Execute code; return (status, text/plain of its result)."""
    text = []

    def hook(m):
        if m["msg_type"] == "execute_result":
            text.append(m["content"]["data"].get("text/plain", ""))

    reply = kc.execute_interactive(code, timeout=timeout, output_hook=hook)
    return reply["content"]["status"], "".join(text)


def main():
    km, kc = start_new_kernel(kernel_name="nimbook", startup_timeout=120)
    res = {}
    try:
        msg_id = kc.execute("while True:\n    pass")
        while True:
            m = kc.get_iopub_msg(timeout=60)
            if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "execute_input":
                break
        time.sleep(1.0)
        pid = km.provisioner.pid
        c0 = cpu_seconds(pid)
        t0 = time.monotonic()
        km.interrupt_kernel()
        while True:
            reply = kc.get_shell_msg(timeout=60)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        res["interrupt_seconds"] = time.monotonic() - t0
        res["interrupt_cpu_seconds"] = cpu_since(pid, c0)
        res["interrupted_status"] = reply["content"]["status"]
        res["interrupted_ename"] = reply["content"].get("ename", "")

        res["next_status"], res["next_result"] = result_of(kc, "1+1")

        # play() asks for moves through the stdin channel (input_request).
        msg_id = kc.execute("play(nim(1, 2))", allow_stdin=True)
        answers = ["2 1", "1", ""]
        prompts = []
        text = []
        for answer in answers:
            req = kc.get_stdin_msg(timeout=60)
            prompts.append(req["content"]["prompt"])
            kc.input(answer)
        while True:
            m = kc.get_iopub_msg(timeout=60)
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "stream":
                text.append(m["content"]["text"])
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                break
        res["play_prompts"] = prompts
        res["play_text"] = "".join(text)

        n = 50
        result_of(kc, "nim_mul(2, 3)")  # warm up
        t0 = time.monotonic()
        texts = set()
        for _ in range(n):
            _, text = result_of(kc, "nim_mul(2, 3)")
            texts.add(text)
        res["roundtrip_ms"] = (time.monotonic() - t0) / n * 1000
        res["roundtrip_results"] = sorted(texts)
        res["cells_timed"] = n
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)
    res["alive_after_shutdown"] = km.is_alive()
    print(json.dumps(res))


main()
