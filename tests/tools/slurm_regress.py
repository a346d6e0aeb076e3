#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A one-node Slurm cluster on localhost runs a small regression (tools/regress --launcher slurm).

  slurm_regress.py --build DIR
Starts munged, slurmctld and slurmd (Debian's munge and slurm-wlm) with every file in a
temporary folder and free ports, runs `tools/regress --launcher slurm --list quick --seeds 2
--no-golden` on DIR's tma-tb, checks that the job array ran 4 tasks, every run passed and the
JUnit holds 4 test cases, and stops the daemons. Exit 0 pass, 1 fail, 2 could not start the
cluster (root or the packages missing: tools/bootstrap installs them).
"""
import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    a = ap.parse_args()
    for tool in ("munged", "slurmctld", "slurmd", "sbatch", "sinfo"):
        if subprocess.run(["which", tool], stdout=subprocess.DEVNULL).returncode != 0:
            print("slurm_regress: %s missing (tools/bootstrap installs munge and slurm-wlm)" % tool)
            return 2
    d = tempfile.mkdtemp(prefix="tma_slurm_")
    for sub in ("state", "spool", "log"):
        os.makedirs(os.path.join(d, sub))
    key = os.path.join(d, "munge.key")
    with open(key, "wb") as f:
        f.write(os.urandom(1024))
    os.chmod(key, 0o400)
    host = socket.gethostname().split(".")[0]
    conf = os.path.join(d, "slurm.conf")
    user = subprocess.run(["id", "-un"], stdout=subprocess.PIPE, text=True).stdout.strip()
    with open(conf, "w") as f:
        f.write("\n".join([
            "ClusterName=tmaregress", "SlurmctldHost=" + host,
            "SlurmctldPort=%d" % free_port(), "SlurmdPort=%d" % free_port(),
            "AuthType=auth/munge", "AuthInfo=socket=%s/munge.sock" % d, "CredType=cred/munge",
            "SlurmUser=" + user, "SlurmdUser=" + user,
            "StateSaveLocation=%s/state" % d, "SlurmdSpoolDir=%s/spool" % d,
            "SlurmctldPidFile=%s/slurmctld.pid" % d, "SlurmdPidFile=%s/slurmd.pid" % d,
            "SlurmctldLogFile=%s/log/slurmctld.log" % d, "SlurmdLogFile=%s/log/slurmd.log" % d,
            "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
            "SchedulerType=sched/builtin", "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU", "MpiDefault=none", "ReturnToService=2",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "NodeName=%s CPUs=%d State=UNKNOWN" % (host, os.cpu_count() or 1),
            "PartitionName=regress Nodes=%s Default=YES MaxTime=INFINITE State=UP" % host, ""]))
    env = dict(os.environ, SLURM_CONF=conf)
    pids = []
    fails = []
    try:
        for cmd in (["munged", "-f", "--key-file=" + key, "--socket=%s/munge.sock" % d,
                     "--pid-file=%s/munged.pid" % d, "--log-file=%s/log/munged.log" % d,
                     "--seed-file=%s/munge.seed" % d],
                    ["slurmctld", "-c"], ["slurmd", "-c"]):
            if subprocess.run(cmd, env=env).returncode != 0:
                print("slurm_regress: %s failed to start (logs in %s/log)" % (cmd[0], d))
                return 2
            time.sleep(1)
        for name in ("munged", "slurmctld", "slurmd"):
            with open(os.path.join(d, name + ".pid")) as f:
                pids.append(int(f.read().split()[0]))
        for _ in range(30):  # the node registers
            s = subprocess.run(["sinfo", "-h", "-o", "%t"], env=env, stdout=subprocess.PIPE,
                               text=True).stdout.strip()
            if s in ("idle", "mix", "alloc"):
                break
            time.sleep(1)
        else:
            print("slurm_regress: the node did not come up (sinfo: %r)" % s)
            return 2
        out = os.path.join(d, "regress")
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "regress"),
                            "--no-bootstrap", "--no-build", "--build", a.build, "--out", out,
                            "--launcher", "slurm", "--list", "quick", "--seeds", "2",
                            "--no-golden"], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=600)
        print(p.stdout[-3000:])
        if p.returncode != 0:
            fails.append("tools/regress --launcher slurm exited %d" % p.returncode)
        if not re.search(r"slurm job array \d+: 4 tasks", p.stdout):
            fails.append("no job array of 4 tasks")
        if len(re.findall(r"PASS .*\(slurm task \d\)", p.stdout)) != 4:
            fails.append("not 4 passing slurm tasks")
        try:
            cases = ET.parse(os.path.join(out, "junit.xml")).getroot().findall("testcase")
            if len(cases) != 4 or any(c.find("failure") is not None for c in cases):
                fails.append("junit.xml: %d test cases, expected 4 passing" % len(cases))
        except (OSError, ET.ParseError) as e:
            fails.append("junit.xml: %s" % e)
        if not os.path.exists(os.path.join(out, "fcov", "merged.txt")):
            fails.append("no merged functional coverage")
    finally:
        for pid in reversed(pids):
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass
    for f in fails:
        print("FAIL: " + f)
    if fails:
        print("slurm_regress: FAIL (cluster files and logs in %s)" % d)
    else:
        shutil.rmtree(d, ignore_errors=True)
        print("slurm_regress: PASS")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
