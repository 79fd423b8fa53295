-- PostgreSQL: nothing; its series are partitioned by month with the key as their only index (0012).
SELECT 1;
