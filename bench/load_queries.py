"""What the database did during a load run (``bench/load.py --query-stats``): the statements
that took the most time (``pg_stat_statements``) and the tables read by sequential scans
(``pg_stat_user_tables``), to find a query that reads every club's rows for one club.

On the throwaway cluster the load test starts, ``pg_stat_statements`` is loaded by a restart
(``ALTER SYSTEM`` + ``pg_ctl restart``, before anything is built); on a server named by
DATABASE_URL it must be in its ``shared_preload_libraries`` already.
"""

from __future__ import annotations

import glob
import subprocess


def preload(database) -> None:
    """Load ``pg_stat_statements`` into the load test's own cluster (restarting it)."""
    import psycopg

    if database.cluster is None:
        return
    with psycopg.connect(database.admin_url, autocommit=True) as conn:
        conn.execute("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
    pg_ctl = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))[-1]
    command = [pg_ctl, "-D", f"{database.cluster}/data", "-w", "-m", "fast", "restart"]
    import os

    if os.getuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def reset(database_url: str) -> bool:
    """Start counting from now (after the build); False when the extension is not there."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            conn.execute("SELECT pg_stat_statements_reset()")
        except psycopg.Error as error:
            print(f"no statement statistics: {str(error).splitlines()[0]}")
            return False
        conn.execute("SELECT pg_stat_reset()")
    return True


def report(database_url: str, top: int = 12) -> None:
    """The statements that took the most time in all, and the tables scanned sequentially."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT calls, total_exec_time, mean_exec_time, max_exec_time, rows, "
            "shared_blks_hit + shared_blks_read, query FROM pg_stat_statements "
            "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "ORDER BY total_exec_time DESC LIMIT %s",
            (top,),
        ).fetchall()
        print(
            f"\nstatements by total time (top {top}): calls, total ms, mean ms, max ms, rows, "
            "blocks"
        )
        for calls, total, mean, most, count, blocks, query in rows:
            text = " ".join(query.split())
            print(
                f"  {calls:6d} {total:9.0f} {mean:7.2f} {most:8.1f} {count:8d} {blocks:9d}  "
                f"{text[:240]}"
            )
        scans = conn.execute(
            "SELECT relname, seq_scan, seq_tup_read, idx_scan, "
            "(SELECT reltuples::bigint FROM pg_class WHERE oid = relid) "
            "FROM pg_stat_user_tables WHERE seq_tup_read > 0 "
            "ORDER BY seq_tup_read DESC LIMIT 10"
        ).fetchall()
        print("tables read by sequential scans: table, scans, rows read, index scans, rows")
        for name, seq, read, idx, live in scans:
            print(f"  {name}: {seq} scans, {read} rows read; {idx or 0} index scans; {live} rows")
