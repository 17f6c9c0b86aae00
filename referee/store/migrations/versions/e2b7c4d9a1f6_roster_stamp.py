"""a tournament's roster stamp: a random value written anew with every change of its players' rows (the live pages
keep the roster by it rather than read 512 rows every second); each tournament made before is given one

Revision ID: e2b7c4d9a1f6
Revises: c6d2a8f4e1b9
Create Date: 2026-12-07 10:00:00

"""
import secrets

from alembic import op
import sqlalchemy as sa


revision = 'e2b7c4d9a1f6'
down_revision = 'c6d2a8f4e1b9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('roster_stamp', sa.String(length=16), nullable=True))
    bind = op.get_bind()
    for (tournament_id,) in bind.execute(sa.text("SELECT id FROM tournaments")).all():
        bind.execute(sa.text("UPDATE tournaments SET roster_stamp = :stamp WHERE id = :id"),
                     {"stamp": secrets.token_hex(8), "id": tournament_id})


def downgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('roster_stamp')
