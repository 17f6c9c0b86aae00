"""a sign-off names the ranking it was given on: the digest of the director's corrected result standing then (none:
the game's own result); a game's table found from its game by an index

Revision ID: c6d2a8f4e1b9
Revises: c6d2a8e4f1b3
Create Date: 2026-12-06 10:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'c6d2a8f4e1b9'
down_revision = 'c6d2a8e4f1b3'
branch_labels = None
depends_on = None


def upgrade():
    # the sign-offs given before: on the game's own result (no ranking named), their hashes as they were
    with op.batch_alter_table('sign_offs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ranking', sa.String(length=64), nullable=True))
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tables_game_id'), ['game_id'], unique=False)


def downgrade():
    named = op.get_bind().execute(sa.text("SELECT COUNT(*) FROM sign_offs WHERE ranking IS NOT NULL")).scalar()
    if named:  # their hashes cover the ranking: without it they would no longer verify
        raise RuntimeError(f"{named} sign-off(s) name the corrected ranking they were given on: the schema cannot go "
                           "back to before sign-offs named it without breaking their chain")
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tables_game_id'))
    with op.batch_alter_table('sign_offs', schema=None) as batch_op:
        batch_op.drop_column('ranking')
