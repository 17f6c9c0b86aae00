"""judges: a tournament's judges' PIN and head judge's PIN (shown to the director, each opening the tournament's
rulings and calls for a judge, and nothing else), and who called a judge (the table's referee or a player)

Revision ID: c6d2a8e4f1b3
Revises: b5e1c7d9a3f2
Create Date: 2026-11-28 07:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'c6d2a8e4f1b3'
down_revision = 'b5e1c7d9a3f2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('judge_pin', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('head_judge_pin', sa.String(length=16), nullable=True))
    with op.batch_alter_table('judge_calls', schema=None) as batch_op:
        batch_op.add_column(sa.Column('caller', sa.String(length=200), nullable=False, server_default=''))


def downgrade():
    with op.batch_alter_table('judge_calls', schema=None) as batch_op:
        batch_op.drop_column('caller')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('head_judge_pin')
        batch_op.drop_column('judge_pin')
