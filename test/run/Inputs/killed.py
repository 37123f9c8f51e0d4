"""SIGKILL of `ptoas run` at a chosen moment, then what is left (test/run/timeout.test).

killed.py TMPDIR PHASE CMD...: runs CMD with TMPDIR set, waits until PHASE has begun
('cc': the compiler has begun to write TMPDIR/ptoas.*/kernel.tmp.*; 'kernel': the
kernel executable TMPDIR/ptoas.*/kernel runs), kills CMD's process with SIGKILL, then waits (up to
60 s) until no process names TMPDIR and TMPDIR is empty, and prints what is left.
killed.py TMPDIR wait: only the last step, for a ptoas that something else killed.
"""
import glob
import os
import signal
import subprocess
import sys
import time


def procs_naming(text, skip=()):
    """The pids whose command line contains text."""
    found = []
    for p in os.listdir('/proc'):
        if not p.isdigit() or int(p) in skip:
            continue
        try:
            with open('/proc/%s/cmdline' % p, 'rb') as f:
                args = f.read().split(b'\0')
        except OSError:
            continue
        if any(text.encode() in a for a in args):
            found.append(int(p))
    return found


def is_kernel(pid, tmp):
    """Whether pid runs the kernel executable TMP/ptoas.*/kernel."""
    try:
        with open('/proc/%d/cmdline' % pid, 'rb') as f:
            exe = f.read().split(b'\0')[0]
    except OSError:
        return False
    return exe.startswith(tmp.encode() + b'/ptoas.') and exe.endswith(b'/kernel')


def left(tmp):
    """(processes that name tmp, entries in tmp), after waiting for both to go."""
    me = os.getpid()
    for _ in range(600):
        procs = procs_naming(tmp, skip=(me,))
        entries = os.listdir(tmp)
        if not procs and not entries:
            break
        time.sleep(0.1)
    return procs, entries


def main():
    tmp, phase = sys.argv[1], sys.argv[2]
    if phase != 'wait':
        env = dict(os.environ, TMPDIR=tmp)
        child = subprocess.Popen(sys.argv[3:], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(1200):
            if phase == 'cc' and glob.glob(tmp + '/ptoas.*/kernel.tmp.*'):
                break
            if phase == 'kernel' and any(is_kernel(p, tmp) for p in procs_naming(tmp + '/ptoas.')):
                break
            if child.poll() is not None:
                print('ptoas ended before the %s ran (status %d)' % (phase, child.returncode))
                return
            time.sleep(0.05)
        else:
            print('the %s never ran' % phase)
        child.send_signal(signal.SIGKILL)
        child.wait()
        print('ptoas killed: %d' % -child.returncode)
    procs, entries = left(tmp)
    print('processes left: %d, files left: %d %s' % (len(procs), len(entries), ' '.join(sorted(entries))))


main()
