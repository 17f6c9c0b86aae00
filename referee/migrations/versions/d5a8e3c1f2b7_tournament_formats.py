"""tournament formats: a tournament's format (rulesets/formats/) and each round's stage in it

Revision ID: d5a8e3c1f2b7
Revises: c3e9f1a4b7d2
Create Date: 2026-11-24 07:20:00

Tournaments from before formats play "open" (rounds drawn, then a seeded final): their rounds are of its stage
"rounds", or "final" for a round seated as the final.
"""
from alembic import op
import sqlalchemy as sa


revision = 'd5a8e3c1f2b7'
down_revision = 'c3e9f1a4b7d2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('format', sa.String(length=80), nullable=False, server_default='open'))
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stage', sa.String(length=40), nullable=True))
    rounds = sa.table('rounds', sa.column('final', sa.Boolean), sa.column('stage', sa.String))
    op.execute(rounds.update().values(stage=sa.case((rounds.c.final == sa.true(), 'final'), else_='rounds')))


def downgrade():
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_column('stage')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('format')
