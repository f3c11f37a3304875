"""Accuracy against measured step times: the measured rows and their groups (`rows`), the cases
that reproduce them (`cases`), predictions and trend errors (`evaluate`), the figure (`plot`)."""
