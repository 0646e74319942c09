"""Principals: users and service accounts, their tokens and their roles."""
