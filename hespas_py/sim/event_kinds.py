"""Kinds of the events a collective's chunk (stream) and its phase algorithms are driven by."""

GENERAL, PACKET_RECEIVED, STREAM_INIT = 0, 1, 2
