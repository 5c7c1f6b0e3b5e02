"""Matching: signature templates, the diagnose engine and the streaming log reader."""
