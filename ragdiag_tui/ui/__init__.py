"""The Textual layer: the app, its screens, widgets and styles, over ragdiag_tui.core."""
