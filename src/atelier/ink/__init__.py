"""Ink: strokes on the wire (codec), checked against a drawing (guard),
turned into shapes (geometry) and pictures (render), and replayed in time."""
