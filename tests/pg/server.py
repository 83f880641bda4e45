"""A real PostgreSQL server in a temporary folder, for the tests and benchmarks.

`initdb` and `pg_ctl` come from PATH or Debian's /usr/lib/postgresql/*/bin. The
server listens on a Unix socket only (no TCP port to collide on), in a folder of
its own. PostgreSQL refuses to run as root, so as root the server runs as the
`postgres` user, in a folder it owns. Two roles: `postgres` (trusted, the
superuser) and `alice`, who must give her password (scram-sha-256), for the
wrong-password test.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from urllib.parse import quote

PASSWORD_ROLE, PASSWORD = "alice", "s3cret-pw"


def find_bin() -> str | None:
    """The folder holding initdb and pg_ctl, or None when PostgreSQL is not installed."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return os.path.dirname(os.path.realpath(found))
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(folder, "initdb")):
            return folder
    return None


class PgServer:
    """One PostgreSQL server: `start()`, `url(db)`, `new_database()`, `stop()`."""

    def __init__(self, fsync: bool = False) -> None:
        bin_dir = find_bin()
        if bin_dir is None:
            raise RuntimeError("PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql)")
        self.bin = bin_dir
        self.fsync = fsync
        self.as_user: str | None = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError(
                    "running as root and there is no `postgres` user to run the server"
                ) from None
            self.as_user = "postgres"
        # Under /tmp directly: a socket path must stay under ~100 bytes, and the
        # postgres user must be able to reach it (pytest's tmp folders are root's alone).
        self.dir = tempfile.mkdtemp(prefix="ragdiag-pg-")
        os.chmod(self.dir, 0o755)
        if self.as_user:
            shutil.chown(self.dir, self.as_user)
        self.data = os.path.join(self.dir, "data")
        self.log = os.path.join(self.dir, "server.log")
        self.running = False

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [os.path.join(self.bin, args[0]) if args[0] != "cp" else "cp", *args[1:]]
        if self.as_user:
            command = ["runuser", "-u", self.as_user, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            log = ""
            if os.path.exists(self.log):
                with open(self.log) as handle:
                    log = handle.read()[-2000:]
            raise RuntimeError(f"{' '.join(args)} failed: {result.stdout}{result.stderr}{log}")
        return result

    def init(self) -> None:
        """A new cluster in `data`: a copy of this process's freshly initialised one (initdb
        costs a second; a copy, a tenth of that)."""
        self._run("cp", "-a", _template(self), self.data)

    def initdb(self) -> None:
        self._run("initdb", "-D", self.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync")
        with open(os.path.join(self.data, "pg_hba.conf"), "w") as hba:
            hba.write(f"local all {PASSWORD_ROLE} scram-sha-256\nlocal all all trust\n")

    def start(self) -> PgServer:
        if not os.path.exists(self.data):
            self.init()
        options = f"-c listen_addresses='' -c unix_socket_directories={self.dir} -c max_connections=200"
        if not self.fsync:
            options += " -c fsync=off"  # commits still reach the OS: a killed server keeps them
        self._run("pg_ctl", "-D", self.data, "-l", self.log, "-w", "-t", "60", "-o", options, "start")
        self.running = True
        return self

    def stop(self) -> None:
        if self.running:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
            self.running = False

    def destroy(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres", user: str = "postgres", password: str | None = None) -> str:
        auth = user if password is None else f"{user}:{quote(password, safe='')}"
        return f"postgresql://{auth}@/{database}?host={quote(self.dir, safe='/')}"

    def sql(self, statement: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            conn.execute(statement)

    def new_database(self, user: str = "postgres", password: str | None = None) -> str:
        """A fresh, empty database; its URL. Tests each get one, so fingerprints never meet."""
        name = "t_" + uuid.uuid4().hex[:16]
        self.sql(f"CREATE DATABASE {name}")
        self.sql(f"GRANT ALL ON DATABASE {name} TO {PASSWORD_ROLE}")
        self.sql(f"GRANT ALL ON SCHEMA public TO {PASSWORD_ROLE}", name)
        return self.url(name, user, password)

    def create_password_role(self) -> None:
        self.sql(f"CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD '{PASSWORD}'")


_TEMPLATES: list[PgServer] = []


def _template(server: PgServer) -> str:
    """The data folder of a cluster initialised once per process and never started, removed at exit."""
    if not _TEMPLATES:
        template = PgServer(fsync=server.fsync)
        template.initdb()
        _TEMPLATES.append(template)
        atexit.register(template.destroy)
    return _TEMPLATES[0].data


def start_server(fsync: bool = False) -> PgServer:
    server = PgServer(fsync=fsync)
    try:
        server.start()
        server.create_password_role()
    except BaseException:
        server.destroy()
        raise
    return server
