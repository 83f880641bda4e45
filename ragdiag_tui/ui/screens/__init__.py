"""The app's screens: review (main), statistics, and the dialogs."""
