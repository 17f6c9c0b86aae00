"""the backups the app takes while serving: one row shared by every worker (the last made, the last failure)

Revision ID: b5e1c7d9a3f2
Revises: b1e5d7a3c9f2
Create Date: 2026-11-26 16:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'b5e1c7d9a3f2'
down_revision = 'b1e5d7a3c9f2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'scheduled_backups',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=True),
        sa.Column('finished_at', sa.DateTime(), nullable=True),
        sa.Column('path', sa.String(length=1000), server_default='', nullable=False),
        sa.Column('size', sa.Integer(), nullable=True),
        sa.Column('failed_at', sa.DateTime(), nullable=True),
        sa.Column('failure', sa.Text(), server_default='', nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )


def downgrade():
    op.drop_table('scheduled_backups')
