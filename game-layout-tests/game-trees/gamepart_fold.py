# SPDX-License-Identifier: GPL-2.0
"""Which names a casefolded directory takes for one, asked of gamepart.

Python test code keeps no copy of the folding rule (the kernel's is
utf8-12.1: NFD, full case folding, ignorable code points dropped, which
Python's unicodedata does not reproduce).  It asks the tool instead:
`gamepart fold -z`, kept running as a coprocess, answers each name with
the first name of the run that folds to the same one, so two names are
one name exactly when their answers are equal.

    folder = Folder()
    folder.key("Straße") == folder.key("STRASSE")    # True
    folder.close()

The gamepart is $GAMEPART, else the build's own (make tool); Folder(
encoding="utf8-windows-12.1") asks for another encoding than utf8-12.1,
which needs a gamepart that folds it (make tool-series).
"""

import os
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def gamepart_path():
    return os.environ.get("GAMEPART") or os.path.join(TOP, "build", "bin",
                                                      "gamepart")


class Folder:
    def __init__(self, gamepart=None, encoding=None):
        self.gamepart = gamepart or gamepart_path()
        if not os.access(self.gamepart, os.X_OK):
            raise FileNotFoundError("no gamepart at %s (make tool)"
                                    % self.gamepart)
        argv = [self.gamepart, "fold", "-z"]
        if encoding:
            argv += ["--encoding", encoding]
        self.proc = subprocess.Popen(argv,
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)
        self.keys = {}

    def key(self, name):
        """NAME's answer (bytes): equal for names that are one name."""
        raw = os.fsencode(name)
        if raw not in self.keys:
            self.proc.stdin.write(raw + b"\0")
            self.proc.stdin.flush()
            answer = bytearray()
            while True:
                c = self.proc.stdout.read(1)
                if not c:
                    raise RuntimeError("gamepart fold stopped answering")
                if c == b"\0":
                    break
                answer += c
            self.keys[raw] = bytes(answer)
        return self.keys[raw]

    def close(self):
        self.proc.stdin.close()
        self.proc.stdout.close()
        if self.proc.wait() != 0:
            raise RuntimeError("gamepart fold exited with status %d"
                               % self.proc.returncode)
