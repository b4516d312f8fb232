"""Exports: every download follows one contract (see ``base.Exporter``)."""
