"""a tournament table's own referee PIN (shown to the director and printed on the table's slip)

Revision ID: a7c41e2b9d10
Revises: 51791c3a3bc9
Create Date: 2026-11-23 19:20:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'a7c41e2b9d10'
down_revision = '51791c3a3bc9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pin', sa.String(length=16), nullable=True))


def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('pin')
