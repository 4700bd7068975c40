-- Image fields of media assets (decisions.md §8 "Media"; docs/api.md "Media"): alt text, the pixel
-- size read at upload (null for files that are not images, and for images uploaded before), and the
-- focal point crops centre on (null: the middle).
alter table media add column alt text not null default '';
alter table media add column width integer check (width > 0);
alter table media add column height integer check (height > 0);
alter table media add column focal_x double precision check (focal_x >= 0 and focal_x <= 1);
alter table media add column focal_y double precision check (focal_y >= 0 and focal_y <= 1);
alter table media add constraint media_focal_point_whole check ((focal_x is null) = (focal_y is null));
