"""A club's privacy (AVG): what the public pages show of a name, members' consent, a member's
data as a file, erasure, deleting a club, the club's log and its privacy statement."""
