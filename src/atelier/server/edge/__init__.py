"""edge"""
