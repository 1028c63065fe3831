# Model admins are registered here once games/models.py has models.
