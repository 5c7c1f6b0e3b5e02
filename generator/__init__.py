"""Failure encyclopedia for distributed ML training: entries -> checked -> rendered site;
logs -> diagnosed with the same compiled signatures."""

__version__ = "0.1.0"
